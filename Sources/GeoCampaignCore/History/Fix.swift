/// One accepted location sample of one user. 32 bytes.
public struct Fix: Sendable, Equatable {
    /// Unix time in milliseconds.
    public var time: Int64
    /// Latitude in degrees.
    public var lat: Double
    /// Longitude in degrees.
    public var lon: Double
    /// Accuracy radius in meters; NaN when absent.
    public var accuracy: Double

    /// Creates a fix.
    public init(time: Int64, lat: Double, lon: Double, accuracy: Double = .nan) {
        self.time = time
        self.lat = lat
        self.lon = lon
        self.accuracy = accuracy
    }

    /// Whether the fix is used under `maxAccuracy` (absent accuracy always is).
    @inlinable public func isUsed(maxAccuracy: Double) -> Bool { !(accuracy > maxAccuracy) }
}
