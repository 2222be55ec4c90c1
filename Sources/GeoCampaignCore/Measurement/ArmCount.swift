/// The measurable users of one arm of a campaign and how many of them converted (measurement.md 3).
public struct ArmCount: Sendable, Equatable {
    /// Measurable users of the arm (`n_T` or `n_H`).
    public var n: Int
    /// Of them, users who converted (`c_T` or `c_H`).
    public var converted: Int

    /// Creates a count.
    public init(n: Int, converted: Int) {
        self.n = n
        self.converted = converted
    }

    /// `converted / n`; nil when the arm is empty.
    public var rate: Double? { n > 0 ? Double(converted) / Double(n) : nil }
}
