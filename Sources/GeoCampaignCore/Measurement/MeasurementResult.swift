/// Reach and lift of a replay (measurement.md 4 and 3): what `geocampaign report` shows.
public struct MeasurementResult: Sendable {
    /// `[min T0, T_data]`: the first and the latest fix considered; nil for an empty history.
    public var period: (from: Int64, to: Int64)?
    /// Lines read (formats.md 3.3).
    public var lines: Int
    /// Fixes considered: accepted, and not after `--until`.
    public var fixes: Int
    /// Users with at least one fix considered.
    public var users: Int
    /// Per campaign, in id order.
    public var campaigns: [CampaignMeasurement]

    /// The figures of a finished tally.
    /// - Parameters:
    ///   - tally: every user's counts, merged.
    ///   - campaigns: the campaigns the tally was made for.
    ///   - lines: lines read from the history.
    /// - Complexity: O(c log c + exposures + quarter hours) for c campaigns.
    public init(tally: MeasurementTally, campaigns: CampaignSet, lines: Int) {
        self.lines = lines
        fixes = tally.fixes
        users = tally.users
        if let a = tally.t0, let b = tally.tData { period = (a, b) }
        let tData = tally.tData ?? .min
        let order = campaigns.campaigns.indices.sorted {
            campaigns.campaigns[$0].id.utf8.lexicographicallyPrecedes(campaigns.campaigns[$1].id.utf8)
        }
        self.campaigns = order.map { CampaignMeasurement(index: $0, campaign: campaigns.campaigns[$0], tally: tally.campaigns[$0], tData: tData) }
    }
}
