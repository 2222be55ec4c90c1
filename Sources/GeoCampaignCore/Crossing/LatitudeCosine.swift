import Foundation

/// Bounds of the cosine of a fix's latitude without calling `cos`, from an anchor latitude whose
/// cosine and sine were computed once: the crossing loop classifies a fix against circles with
/// the bounds (`CircleClassifier.classify(latRad:lonRad:cosLow:cosHigh:)`) and computes the exact
/// cosine only when they leave a class undecided or a region needs it. One user's fixes mostly
/// stay within a few kilometres, so one anchor serves many fixes.
///
/// Why the bounds hold: for latitudes `a` and `a + d` in `-pi/2 ... pi/2`, Taylor's theorem gives
/// `cos(a + d) = cos a - d sin a - (d^2 / 2) cos(x)` for some `x` between them, where
/// `0 <= cos(x) <= 1`; so `cos(a + d)` lies in `[cos a - d sin a - d^2 / 2, cos a - d sin a]`.
/// `cos` and `sin` err by less than an ulp (about 1.1e-16 here) and the bounds' own arithmetic
/// by a few more; `slack`, 1e-14, is added on both sides, far above all of them, so `cos` of the
/// fix's latitude, as the exact path computes it, lies within the bounds.
///
/// Not thread-safe: one per user and thread, like the crossing loop's other state.
struct LatitudeCosine {
    /// The anchor latitude (radians; NaN before the first fix) and its cosine and sine.
    private var anchor = Double.nan
    private var cosAnchor = 0.0
    private var sinAnchor = 0.0

    /// A fix farther than this from the anchor (radians of latitude, about 6.4 km) moves the
    /// anchor to it: the bounds' width, `d^2 / 2`, stays under 5e-7.
    static let reach = 1e-3
    /// What the bounds are widened by on both sides (see the type's comment).
    static let slack = 1e-14

    /// Bounds of `cos(latRad)` for a latitude in `-pi/2 ... pi/2`. When the anchor moves to
    /// `latRad` (the first call, or a fix beyond `reach`), `exact` is true and both bounds are
    /// `cos(latRad)` itself.
    /// - Complexity: O(1); `cos` and `sin` only when the anchor moves.
    @inline(__always)
    mutating func bounds(_ latRad: Double) -> (low: Double, high: Double, exact: Bool) {
        let d = latRad - anchor
        if !(abs(d) <= LatitudeCosine.reach) {
            anchor = latRad
            cosAnchor = cos(latRad)
            sinAnchor = sin(latRad)
            return (cosAnchor, cosAnchor, true)
        }
        let linear = cosAnchor - d * sinAnchor
        return (linear - d * d * 0.5 - LatitudeCosine.slack, linear + LatitudeCosine.slack, false)
    }
}
