/// Decides what happens to each trigger of one user (semantics 4): arbitration order, offer
/// caps, holdout, one delivery per instant, and the per-user limit.
///
/// Immutable once built: one arbiter serves every user, from any thread.
///
///     let arbiter = Arbiter(campaigns: set)
///     let decisions = arbiter.decide(userId: "u-17", triggers: allTriggersOfTheUser)
///
/// Statuses are checked in this order: `capped` (the offer already has `max` delivered or held-out
/// decisions for this user in `(t - per, t]`), `held_out` (counts toward that offer's cap only),
/// `lower_priority` (something was delivered to this user at this instant), `limited`
/// (`limits.per_user` allows no more deliveries in `(t - per, t]`), else `delivered`.
public struct Arbiter: Sendable {
    /// The campaigns and settings decided over.
    public let campaigns: CampaignSet
    /// Per campaign, per rule: the index of the rule's offer in its campaign (nil if unknown).
    let offerOfRule: [[Int?]]

    /// Prepares arbitration over `campaigns`.
    /// - Complexity: O(rules x offers).
    public init(campaigns: CampaignSet) {
        self.campaigns = campaigns
        offerOfRule = campaigns.campaigns.map { c in c.rules.map { c.offerIndex($0.offer) } }
    }

    /// The offer a trigger would deliver, if its campaign, rule and offer exist.
    public func offer(of trigger: Trigger) -> Offer? {
        guard let o = offerIndex(trigger) else { return nil }
        return campaigns.campaigns[trigger.campaign].offers[o]
    }

    func offerIndex(_ t: Trigger) -> Int? {
        guard offerOfRule.indices.contains(t.campaign), offerOfRule[t.campaign].indices.contains(t.rule) else { return nil }
        return offerOfRule[t.campaign][t.rule]
    }

    /// Sorts triggers into arbitration order: time, then offer priority (higher first), then
    /// campaign id, then rule id (UTF-8 byte order).
    /// - Complexity: O(n log n).
    public func arbitrationOrder(_ triggers: [Trigger]) -> [Trigger] {
        func key(_ t: Trigger) -> (priority: Int, campaign: String, rule: String) {
            let c = campaigns.campaigns.indices.contains(t.campaign) ? campaigns.campaigns[t.campaign] : nil
            let rule = c.flatMap { $0.rules.indices.contains(t.rule) ? $0.rules[t.rule].id : nil } ?? ""
            return (offer(of: t)?.priority ?? 0, c?.id ?? "", rule)
        }
        let keyed = triggers.enumerated().map { (index: $0.offset, trigger: $0.element, key: key($0.element)) }
        return keyed.sorted { a, b in
            if a.trigger.time != b.trigger.time { return a.trigger.time < b.trigger.time }
            if a.key.priority != b.key.priority { return a.key.priority > b.key.priority }
            if a.key.campaign != b.key.campaign { return a.key.campaign.utf8.lexicographicallyPrecedes(b.key.campaign.utf8) }
            if a.key.rule != b.key.rule { return a.key.rule.utf8.lexicographicallyPrecedes(b.key.rule.utf8) }
            return a.index < b.index
        }.map(\.trigger)
    }

    /// One decision per trigger, in output order (time, then arbitration order).
    ///
    /// - Parameters:
    ///   - userId: the user's id as written in the history (hashed for holdout).
    ///   - triggers: all triggers of this user from all campaigns, any order.
    /// - Complexity: O(n log n + n x d) for n triggers and d decisions within a cap or limit window.
    public func decide(userId: String, triggers: [Trigger]) -> [Decision] {
        run(userId: userId, triggers: triggers, explain: false).map(\.decision)
    }

    /// As `decide`, with each decision's reason in words (for `geocampaign explain`).
    ///
    ///     capped: "cap of test-drive reached: 1 delivered or held out in the last 7d (cap 1 per 7d)"
    public func explainDecisions(userId: String, triggers: [Trigger]) -> [ExplainedDecision] {
        run(userId: userId, triggers: triggers, explain: true)
    }

    func run(userId: String, triggers: [Trigger], explain: Bool) -> [ExplainedDecision] {
        var capHistory: [OfferKey: [Int64]] = [:]
        var deliveredTimes: [Int64] = []
        var lastDelivered: Trigger?
        var heldOut: [Int: Bool] = [:]
        var out: [ExplainedDecision] = []
        out.reserveCapacity(triggers.count)
        for trigger in arbitrationOrder(triggers) {
            let t = trigger.time
            let offerIdx = offerIndex(trigger)
            let key = OfferKey(campaign: trigger.campaign, offer: offerIdx ?? -1)
            let offer = self.offer(of: trigger)
            let status: DecisionStatus
            var why = ""
            let capCount = offer?.cap.map { Self.count(capHistory[key] ?? [], within: $0.perMs, at: t) } ?? 0
            if let cap = offer?.cap, capCount >= cap.count {
                status = .capped
                if explain {
                    why = "cap of \(offer?.id ?? "?") reached: \(capCount) delivered or held out "
                        + Self.windowText(cap.perMs) + " (cap \(Self.capText(cap)))"
                }
            } else if isHeldOut(campaign: trigger.campaign, userId: userId, cache: &heldOut) {
                status = .heldOut
                if explain {
                    let c = campaigns.campaigns[trigger.campaign]
                    why = "user is in the \(Self.percentText(c.holdoutPercent))% holdout of \(c.id) "
                        + "(bucket \(Holdout.bucket(campaignId: c.id, userId: userId)) of 10000)"
                }
            } else if let last = lastDelivered, last.time == t {
                status = .lowerPriority
                if explain { why = "\(name(of: last)) was delivered at the same instant" }
            } else if let limit = campaigns.settings.perUserLimit,
                      Self.count(deliveredTimes, within: limit.perMs, at: t) >= limit.count {
                status = .limited
                if explain {
                    let n = Self.count(deliveredTimes, within: limit.perMs, at: t)
                    why = "per-user limit reached: \(n) \(n == 1 ? "delivery" : "deliveries") " + Self.windowText(limit.perMs) + " (limit \(Self.capText(limit)))"
                }
            } else {
                status = .delivered
                if explain { why = "delivered: no cap, holdout, earlier delivery at this instant or limit stood in the way" }
            }
            if status == .delivered || status == .heldOut { capHistory[key, default: []].append(t) }
            if status == .delivered {
                deliveredTimes.append(t)
                lastDelivered = trigger
            }
            out.append(ExplainedDecision(decision: Decision(trigger: trigger, status: status), why: why))
        }
        return out
    }

    /// `car-shoppers/test-drive`.
    func name(of trigger: Trigger) -> String {
        let c = campaigns.campaigns.indices.contains(trigger.campaign) ? campaigns.campaigns[trigger.campaign].id : "?"
        return c + "/" + (offer(of: trigger)?.id ?? "?")
    }

    static func windowText(_ per: Int64?) -> String {
        per.map { "in the last " + ExplainText.duration($0) } ?? "in the user's lifetime"
    }

    static func capText(_ cap: Cap) -> String {
        "\(cap.count)" + (cap.perMs.map { " per " + ExplainText.duration($0) } ?? "")
    }

    static func percentText(_ p: Double) -> String {
        p == p.rounded() && abs(p) < 1e15 ? String(Int64(p)) : String(p)
    }

    /// Whether the user is in campaign `campaign`'s holdout (memoised per call of `decide`).
    func isHeldOut(campaign: Int, userId: String, cache: inout [Int: Bool]) -> Bool {
        if let known = cache[campaign] { return known }
        guard campaigns.campaigns.indices.contains(campaign) else { return false }
        let c = campaigns.campaigns[campaign]
        let result = Holdout.isHeldOut(campaignId: c.id, userId: userId, percent: c.holdoutPercent)
        cache[campaign] = result
        return result
    }

    /// How many of `times` (ascending, all <= t) lie in `(t - per, t]`, or all of them without a period.
    static func count(_ times: [Int64], within per: Int64?, at t: Int64) -> Int {
        guard let per else { return times.count }
        let (lower, overflow) = t.subtractingReportingOverflow(per)
        if overflow { return times.count }
        var n = 0
        for time in times.reversed() {
            if time > lower { n += 1 } else { break }
        }
        return n
    }

    /// A (campaign, offer) pair: the unit a cap counts.
    struct OfferKey: Hashable {
        let campaign: Int
        let offer: Int
    }
}
