/// What counts as a conversion of a campaign, for its lift (measurement.md 1): a visit to one of
/// the goal's regions that starts within `within` after the user's exposure and lasts at least
/// `min_dwell`.
///
///     goal: { tags: [own-restaurant], within: 7d, min_dwell: 5m }
public struct Goal: Sendable {
    /// The goal's regions: regions of the same campaign, by id or tag, matched as in rules.
    public var selector: RegionSelector
    /// How long after the exposure a conversion counts, in milliseconds (> 0).
    public var withinMs: Int64
    /// The shortest visit that counts, in milliseconds (default 0).
    public var minDwellMs: Int64

    /// Creates a goal.
    public init(selector: RegionSelector, withinMs: Int64, minDwellMs: Int64 = 0) {
        self.selector = selector
        self.withinMs = withinMs
        self.minDwellMs = minDwellMs
    }
}
