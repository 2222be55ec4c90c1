import Foundation

/// The lift figures of measurement.md 3, computed from the two arms' counts. A figure that the
/// counts cannot give is nil (`null` in the JSON):
///
///     let l = Lift(treated: ArmCount(n: 4, converted: 2), holdout: ArmCount(n: 1, converted: 0))
///     l.absoluteLift    // 0.5
///     l.relativeLift    // nil: no holdout conversion to divide by
///     l.enoughData      // false: fewer than 100 users and 25 conversions per group
public struct Lift: Sendable, Equatable {
    /// Measurable users each arm needs for `enoughData`.
    public static let minUsersPerArm = 100
    /// Conversions each arm needs for `enoughData`.
    public static let minConversionsPerArm = 25

    /// The treated arm.
    public var treated: ArmCount
    /// The holdout arm.
    public var holdout: ArmCount
    /// `p_T - p_H`; nil when an arm is empty.
    public var absoluteLift: Double?
    /// `absolute_lift ± 1.959964 * sqrt(p_T(1-p_T)/n_T + p_H(1-p_H)/n_H)`; nil when an arm is empty.
    public var absoluteCI95: ConfidenceInterval?
    /// `p_T / p_H - 1`; nil when `c_H = 0` or an arm is empty.
    public var relativeLift: Double?
    /// `exp(ln(p_T/p_H) ± 1.959964 * sqrt(1/c_T - 1/n_T + 1/c_H - 1/n_H)) - 1`; nil when `c_T = 0` or `c_H = 0`.
    public var relativeCI95: ConfidenceInterval?
    /// `absolute_lift * n_T`: conversions the campaign added among the treated.
    public var incrementalConversions: Double?
    /// Two-sided pooled two-proportion z test; nil when its denominator is 0 (or an arm is empty).
    public var pValue: Double?
    /// `n_T >= 100`, `n_H >= 100`, `c_T >= 25` and `c_H >= 25`.
    public var enoughData: Bool

    /// Computes every figure from the two arms.
    /// - Complexity: O(1).
    public init(treated: ArmCount, holdout: ArmCount) {
        self.treated = treated
        self.holdout = holdout
        enoughData = treated.n >= Self.minUsersPerArm && holdout.n >= Self.minUsersPerArm
            && treated.converted >= Self.minConversionsPerArm && holdout.converted >= Self.minConversionsPerArm
        guard let pT = treated.rate, let pH = holdout.rate else { return }
        let nT = Double(treated.n), nH = Double(holdout.n), cT = Double(treated.converted), cH = Double(holdout.converted)
        let z = StandardNormal.z975
        let lift = pT - pH
        absoluteLift = lift
        let se = (pT * (1 - pT) / nT + pH * (1 - pH) / nH).squareRoot()
        absoluteCI95 = ConfidenceInterval(low: lift - z * se, high: lift + z * se)
        incrementalConversions = lift * nT
        if holdout.converted > 0 {
            relativeLift = pT / pH - 1
            if treated.converted > 0 {
                let logRatio = log(pT / pH)
                let seLog = (1 / cT - 1 / nT + 1 / cH - 1 / nH).squareRoot()
                relativeCI95 = ConfidenceInterval(low: exp(logRatio - z * seLog) - 1, high: exp(logRatio + z * seLog) - 1)
            }
        }
        let pooled = (cT + cH) / (nT + nH)
        let denominator = (pooled * (1 - pooled) * (1 / nT + 1 / nH)).squareRoot()
        if denominator > 0 { pValue = StandardNormal.twoSidedP((pT - pH) / denominator) }
    }
}
