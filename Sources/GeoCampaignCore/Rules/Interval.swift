/// A half-open interval `[start, end)` of Unix milliseconds; `end == Int64.max` means unbounded.
public struct Interval: Sendable, Equatable, Hashable {
    /// First instant in the interval.
    public var start: Int64
    /// First instant after the interval.
    public var end: Int64
    /// Creates `[start, end)`.
    public init(_ start: Int64, _ end: Int64) {
        self.start = start
        self.end = end
    }
    /// Whether `t` lies in `[start, end)`.
    @inlinable public func contains(_ t: Int64) -> Bool { start <= t && t < end }
}

/// Saturating `a + b` for a non-negative `b`: `Int64.max` stands for infinity.
@inlinable func addSaturating(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b >= 0 ? Int64.max : Int64.min) : sum
}
