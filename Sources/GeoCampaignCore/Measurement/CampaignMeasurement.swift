/// The reach and lift of one campaign (measurement.md 4 and 3).
public struct CampaignMeasurement: Sendable {
    /// The index of the campaign in its campaign set.
    public var index: Int
    /// The campaign id.
    public var campaign: String
    /// Users with a visit to any region of the campaign.
    public var users: Int
    /// Per rule, in file order.
    public var rules: [RuleReach]
    /// Per offer, in file order.
    public var offers: [OfferReach]
    /// The lift, for a campaign with a goal.
    public var lift: CampaignLift?
    /// Visits per region, in the campaign's region order.
    public var regionVisits: [Int]
    /// Decisions per quarter hour (`CampaignTally.bucketMs`), by status.
    public var decisionsByQuarterHour: [Int64: [DecisionStatus: Int]]

    /// The figures of one campaign's tally.
    /// - Parameter tData: the latest fix of the whole history: exposures whose window ends after it are pending.
    public init(index: Int, campaign c: Campaign, tally t: CampaignTally, tData: Int64) {
        self.index = index
        campaign = c.id
        users = t.users
        rules = zip(c.rules, t.rules).map { RuleReach(rule: $0.id, triggered: $1.triggered, triggers: $1.triggers) }
        offers = zip(c.offers, t.offers).map { OfferReach(offer: $0.id, reached: $1.reached, decisions: Self.byStatus($1.decisions)) }
        regionVisits = t.regionVisits
        decisionsByQuarterHour = t.decisionsByQuarterHour.mapValues(Self.byStatus)
        if let goal = c.goal { lift = CampaignLift(goal: goal, campaign: c, exposures: t.exposures, tData: tData) }
    }

    static func byStatus(_ counts: [Int]) -> [DecisionStatus: Int] {
        var out: [DecisionStatus: Int] = [:]
        for s in DecisionStatus.allCases { out[s] = counts[s.index] }
        return out
    }
}
