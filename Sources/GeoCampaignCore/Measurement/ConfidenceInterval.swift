/// A confidence interval: its lower and upper ends.
public struct ConfidenceInterval: Sendable, Equatable {
    /// The lower end.
    public var low: Double
    /// The upper end.
    public var high: Double

    /// Creates an interval.
    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// Whether 0 lies inside the interval (ends included).
    public var containsZero: Bool { low <= 0 && 0 <= high }
}
