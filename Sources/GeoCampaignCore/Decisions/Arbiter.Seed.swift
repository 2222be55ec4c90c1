extension Arbiter {
    /// A decision of an earlier run that can still count for a cap or the per-user limit
    /// (state.md 1): delivered or held out, older than every trigger now decided.
    public struct Seed: Sendable, Equatable {
        /// Unix ms.
        public var time: Int64
        /// Delivered (counts for caps and the limit) or held out (counts for the cap only).
        public var delivered: Bool
        /// The campaign and offer ids (an offer no longer known still counts for the limit).
        public var campaignId: String
        public var offerId: String
        /// The rule that fired, to name the decision in a later decision's reason (`reason.by`);
        /// empty when unknown (a record of schema version 1).
        public var ruleId: String

        /// Creates a seed.
        public init(time: Int64, delivered: Bool, campaignId: String, offerId: String, ruleId: String) {
            self.time = time
            self.delivered = delivered
            self.campaignId = campaignId
            self.offerId = offerId
            self.ruleId = ruleId
        }
    }

    /// The offer slot of a seed's (campaign id, offer id), -1 when unknown.
    func slot(campaignId: String, offerId: String) -> Int {
        var base = 0
        for c in campaigns.campaigns {
            if c.id == campaignId { return c.offerIndex(offerId).map { base + $0 } ?? -1 }
            base += c.offers.count
        }
        return -1
    }

    /// The cap of an offer slot, if any.
    func cap(ofSlot slot: Int) -> Cap? {
        var base = 0
        for c in campaigns.campaigns {
            if slot < base + c.offers.count { return slot >= base ? c.offers[slot - base].cap : nil }
            base += c.offers.count
        }
        return nil
    }

    /// A seed as the earlier decision a reason names: its campaign and rule found by id in this
    /// arbiter's campaigns; nil when either is no longer there (or the rule id is unknown), so
    /// that the seed counts but is not named.
    func priorDecision(_ seed: Seed) -> PriorDecision? {
        guard let c = campaigns.campaigns.firstIndex(where: { $0.id == seed.campaignId }),
              let r = campaigns.campaigns[c].rules.firstIndex(where: { $0.id == seed.ruleId && $0.offer == seed.offerId }) else { return nil }
        return PriorDecision(trigger: Trigger(time: seed.time, campaign: c, rule: r, evidence: []),
                             status: seed.delivered ? .delivered : .heldOut)
    }
}
