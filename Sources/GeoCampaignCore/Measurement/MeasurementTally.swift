/// The running counts of a measurement, added user by user (`MeasurementPlan.add`) and merged
/// across threads; `measurement(stats:)` turns them into the figures.
public struct MeasurementTally: Sendable {
    /// Users with at least one fix considered.
    public var users = 0
    /// Fixes considered (accepted, and not after `--until`).
    public var fixes = 0
    /// The earliest first fix of any user (`min T0`); nil before any user.
    public var t0: Int64?
    /// The latest fix of any user (`T_data`); nil before any user.
    public var tData: Int64?
    /// Per campaign, in the campaign set's order.
    public var campaigns: [CampaignTally]

    /// A zero tally for `campaigns`.
    public init(campaigns: [Campaign]) {
        self.campaigns = campaigns.map(CampaignTally.init)
    }

    /// Adds another tally of the same campaigns (a block or thread's).
    /// - Complexity: O(regions + rules + offers + exposures + quarter hours) of `other`.
    public mutating func merge(_ other: MeasurementTally) {
        users += other.users
        fixes += other.fixes
        if let a = other.t0 { t0 = min(t0 ?? a, a) }
        if let b = other.tData { tData = max(tData ?? b, b) }
        for c in campaigns.indices { campaigns[c].merge(other.campaigns[c]) }
    }
}
