import Foundation

/// The standard normal distribution, for the two-sided p-value of the lift (measurement.md 3).
///
///     StandardNormal.twoSidedP(1.959964)  // 0.05000...
///     StandardNormal.twoSidedP(0)         // 1
public enum StandardNormal {
    /// The 97.5% quantile that measurement.md fixes for every 95% interval.
    public static let z975 = 1.959964

    /// `Phi(z)`, the cumulative distribution function.
    public static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

    /// `2 * (1 - Phi(|z|))`, computed as `erfc(|z| / sqrt 2)`, which keeps its precision for large `|z|`.
    public static func twoSidedP(_ z: Double) -> Double { erfc(abs(z) / 2.0.squareRoot()) }
}
