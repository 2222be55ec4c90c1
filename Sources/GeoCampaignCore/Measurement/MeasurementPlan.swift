/// What measuring needs to know of the campaigns, compiled once: each rule's offer, each
/// campaign's goal regions. Immutable; shared by every thread.
public struct MeasurementPlan: Sendable {
    /// The campaigns measured.
    public let campaigns: CampaignSet
    /// Per campaign, per rule: the index of its offer.
    let ruleOffer: [[Int]]
    /// Per campaign: per region, whether it is one of the goal's regions (empty without a goal).
    let goalRegions: [[Bool]]

    /// Compiles the plan.
    /// - Complexity: O(regions + rules + offers).
    public init(campaigns: CampaignSet) {
        self.campaigns = campaigns
        ruleOffer = campaigns.campaigns.map { c in c.rules.map { r in c.offerIndex(r.offer) ?? 0 } }
        goalRegions = campaigns.campaigns.map { c in
            guard let g = c.goal else { return [] }
            return c.regions.map { g.selector.matches($0) }
        }
    }

    /// A tally with zero counts, shaped for these campaigns.
    public func emptyTally() -> MeasurementTally { MeasurementTally(campaigns: campaigns.campaigns) }

    /// Adds one user's outcome to `tally`: reach counts, visits per region, decisions per
    /// quarter hour, and the user's exposure to each campaign with a goal.
    /// - Complexity: O(visits + triggers + decisions) of the user.
    public func add(_ o: UserOutcome, to t: inout MeasurementTally) {
        t.users += 1
        t.fixes += o.fixCount
        t.t0 = min(t.t0 ?? o.t0, o.t0)
        t.tData = max(t.tData ?? o.tEnd, o.tEnd)
        for c in o.visits.indices where !o.visits[c].isEmpty {
            t.campaigns[c].users += 1
            for v in o.visits[c] { t.campaigns[c].regionVisits[Int(v.region)] += 1 }
        }
        // Distinct users per rule and per offer: a user counts once however many triggers.
        var seenRules: [Int] = [], seenOffers: [Int] = []
        for tr in o.triggers {
            t.campaigns[tr.campaign].rules[tr.rule].triggers += 1
            let key = tr.campaign << 32 | tr.rule
            if !seenRules.contains(key) {
                seenRules.append(key)
                t.campaigns[tr.campaign].rules[tr.rule].triggered += 1
            }
        }
        var firstDecision: [Int: Int64] = [:]
        for d in o.decisions {
            let c = d.trigger.campaign, offer = ruleOffer[c][d.trigger.rule]
            t.campaigns[c].offers[offer].decisions[d.status.index] += 1
            t.campaigns[c].count(decisionAt: d.trigger.time, status: d.status)
            if d.status == .delivered {
                let key = c << 32 | offer
                if !seenOffers.contains(key) {
                    seenOffers.append(key)
                    t.campaigns[c].offers[offer].reached += 1
                }
            }
            if let f = firstDecision[c] { firstDecision[c] = min(f, d.trigger.time) } else { firstDecision[c] = d.trigger.time }
        }
        for (c, x) in firstDecision {
            guard let goal = campaigns.campaigns[c].goal else { continue }
            let campaign = campaigns.campaigns[c]
            let heldOut = Holdout.isHeldOut(campaignId: campaign.id, userId: o.userId, percent: campaign.holdoutPercent)
            let converted = Exposure.converts(after: x, visits: o.visits[c], isGoal: goalRegions[c], goal: goal)
            t.campaigns[c].exposures.append(Exposure(time: x, heldOut: heldOut, converted: converted))
        }
    }
}
