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

    /// Where a seed's campaign and rule are in this arbiter's campaigns, to name the seed as the
    /// earlier decision a reason names (`PriorDecision`): found by id, nil when either is no
    /// longer there (or the rule id is unknown), so that the seed counts but is not named.
    func priorRule(of seed: Seed) -> (campaign: Int, rule: Int)? {
        guard let c = campaigns.campaigns.firstIndex(where: { $0.id == seed.campaignId }),
              let r = campaigns.campaigns[c].rules.firstIndex(where: { $0.id == seed.ruleId && $0.offer == seed.offerId }) else { return nil }
        return (c, r)
    }

    /// What the arbiter needs of a seed besides its time: its offer slot (-1 when unknown),
    /// whether that offer has a cap, and, when reasons are written, its rule (`priorRule`).
    struct SeedPlace {
        var slot: Int
        var capped: Bool
        var rule: (campaign: Int, rule: Int)?
    }

    /// The places of `prior`'s seeds, in order. Consecutive seeds name the same campaign, offer
    /// and rule most of the time (one rule firing day after day): their place is found once,
    /// and a repeat costs three comparisons of equal strings.
    func places(of prior: [Seed], explain: Bool) -> [SeedPlace] {
        var out: [SeedPlace] = []
        out.reserveCapacity(prior.count)
        for (k, seed) in prior.enumerated() {
            if k > 0, case let p = prior[k - 1], seed.campaignId == p.campaignId, seed.offerId == p.offerId, seed.ruleId == p.ruleId {
                out.append(out[k - 1])
                continue
            }
            let slot = self.slot(campaignId: seed.campaignId, offerId: seed.offerId)
            out.append(SeedPlace(slot: slot, capped: slot >= 0 && cap(ofSlot: slot) != nil, rule: explain ? priorRule(of: seed) : nil))
        }
        return out
    }
}
