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

/// The regions of a campaign a selector matches, by region index.
struct RegionMask: Sendable {
    private let bits: [Bool]
    /// The ids of the matched regions, in campaign order (for descriptions).
    let ids: [String]

    init(_ selector: RegionSelector, in campaign: Campaign) {
        bits = campaign.regions.map { selector.matches($0) }
        ids = campaign.regions.filter { selector.matches($0) }.map(\.id)
    }

    /// Whether region index `region` is matched (false when out of range).
    func contains(_ region: Int32) -> Bool {
        let i = Int(region)
        return i >= 0 && i < bits.count && bits[i]
    }
}
