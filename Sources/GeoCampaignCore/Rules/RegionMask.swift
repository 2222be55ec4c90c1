/// The regions of a campaign a selector matches, by region index.
struct RegionMask: Sendable {
    private let bits: [Bool]
    /// The ids of the matched regions, in campaign order (for descriptions).
    let ids: [String]

    init(_ selector: RegionSelector, in campaign: Campaign) {
        let matched = campaign.regions.map { selector.matches($0) }
        bits = matched
        ids = campaign.regions.indices.compactMap { matched[$0] ? campaign.regions[$0].id : nil }
    }

    /// Whether region index `region` is matched (false when out of range).
    func contains(_ region: Int32) -> Bool {
        let i = Int(region)
        return i >= 0 && i < bits.count && bits[i]
    }
}
