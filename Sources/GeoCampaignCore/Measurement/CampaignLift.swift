/// The lift of a campaign with a goal (measurement.md 2 and 3): its measurable exposures split
/// into the two arms, and the users whose goal window had not ended by the end of the data.
public struct CampaignLift: Sendable {
    /// The goal.
    public var goal: Goal
    /// The ids of the goal's regions, in byte order.
    public var goalRegions: [String]
    /// Exposed users whose `exposure + within` is after `T_data`: left out of both arms.
    public var pending: Int
    /// The figures.
    public var lift: Lift

    /// Splits `exposures` into the arms; those not measurable by `tData` are pending.
    /// - Complexity: O(e + r log r) for e exposures and r goal regions.
    public init(goal: Goal, campaign: Campaign, exposures: [Exposure], tData: Int64) {
        self.goal = goal
        goalRegions = campaign.regions.filter { goal.selector.matches($0) }.map(\.id)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var treated = ArmCount(n: 0, converted: 0), holdout = ArmCount(n: 0, converted: 0), pending = 0
        for e in exposures {
            guard e.time + goal.withinMs <= tData else {
                pending += 1
                continue
            }
            if e.heldOut {
                holdout.n += 1
                if e.converted { holdout.converted += 1 }
            } else {
                treated.n += 1
                if e.converted { treated.converted += 1 }
            }
        }
        self.pending = pending
        lift = Lift(treated: treated, holdout: holdout)
    }
}
