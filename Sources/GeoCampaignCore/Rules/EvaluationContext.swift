/// One user's input to rule evaluation: the visits of one campaign and the timeline `[T0, Tend]`.
struct EvaluationContext {
    /// The user's visits of the campaign (indices are what evidence refers to).
    let visits: [Visit]
    /// `[T0, Tend + 1)`: the timeline closed at `Tend` (semantics 3).
    let domain: Interval

    /// Indices of the visits whose region is selected by `mask`.
    func matching(_ mask: RegionMask) -> [Int] {
        visits.indices.filter { mask.contains(visits[$0].region) }
    }
}
