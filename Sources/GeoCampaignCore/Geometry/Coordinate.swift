/// A point on the Earth in degrees (WGS 84 latitude and longitude).
public struct Coordinate: Hashable, Sendable {
    /// Latitude in degrees, -90...90.
    public var lat: Double
    /// Longitude in degrees, -180...180.
    public var lon: Double

    /// Creates a coordinate from latitude and longitude in degrees.
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
