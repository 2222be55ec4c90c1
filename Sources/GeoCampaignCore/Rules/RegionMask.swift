/// The regions of a campaign a selector matches, by region index.
struct RegionMask: Sendable {
    /// Per region index, whether it is matched.
    let bits: [Bool]
    /// The ids of the matched regions, in campaign order (for descriptions).
    let ids: [String]

    init(_ selector: RegionSelector, in campaign: Campaign) {
        let matched = campaign.regions.map { selector.matches($0) }
        bits = matched
        ids = campaign.regions.indices.compactMap { matched[$0] ? campaign.regions[$0].id : nil }
    }

    private init(bits: [Bool], ids: [String]) {
        self.bits = bits
        self.ids = ids
    }

    /// The same mask with its bits in storage of its own (for a worker thread's copy of the
    /// rules: see `CompiledCondition.workerCopy()`); the ids, read only to describe the mask,
    /// are shared.
    /// - Complexity: O(regions), a copy (matching the selector again is O(regions x tags)).
    func copy() -> RegionMask {
        RegionMask(bits: bits.withUnsafeBufferPointer { Array($0) }, ids: ids)
    }

    /// Whether region index `region` is matched (false when out of range).
    func contains(_ region: Int32) -> Bool {
        let i = Int(region)
        return i >= 0 && i < bits.count && bits[i]
    }
}
