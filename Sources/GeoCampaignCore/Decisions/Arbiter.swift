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
    /// Per campaign, per rule: the rule's place in the order of (offer priority, highest first;
    /// campaign id; rule id), equal keys sharing a rank; `otherRank` for a trigger naming no rule.
    let rank: [[Int]]
    let otherRank: Int
    /// Per campaign, per rule: the cap of the rule's offer and the offer's number among all
    /// campaigns' offers.
    let capOfRule: [[Cap?]]
    let offerSlot: [[Int]]

    /// Prepares arbitration over `campaigns`.
    /// - Complexity: O(rules x offers + rules log rules).
    public init(campaigns: CampaignSet) {
        self.campaigns = campaigns
        let offerOfRule = campaigns.campaigns.map { c in c.rules.map { c.offerIndex($0.offer) } }
        self.offerOfRule = offerOfRule
        // The arbitration key of every rule, plus the key (0, "", "") of a trigger naming none.
        var keys: [(priority: Int, campaign: String, rule: String, c: Int, r: Int)] = [(0, "", "", -1, -1)]
        var slots: [[Int]] = [], caps: [[Cap?]] = []
        var slotBase = 0
        for (c, campaign) in campaigns.campaigns.enumerated() {
            var campaignSlots: [Int] = [], campaignCaps: [Cap?] = []
            for (r, rule) in campaign.rules.enumerated() {
                let o = offerOfRule[c][r]
                keys.append((o.map { campaign.offers[$0].priority } ?? 0, campaign.id, rule.id, c, r))
                campaignSlots.append(o.map { slotBase + $0 } ?? -1)
                campaignCaps.append(o.flatMap { campaign.offers[$0].cap })
            }
            slots.append(campaignSlots)
            caps.append(campaignCaps)
            slotBase += campaign.offers.count
        }
        offerSlot = slots
        capOfRule = caps
        func before(_ a: (priority: Int, campaign: String, rule: String, c: Int, r: Int),
                    _ b: (priority: Int, campaign: String, rule: String, c: Int, r: Int)) -> Bool {
            if a.priority != b.priority { return a.priority > b.priority }
            if a.campaign != b.campaign { return a.campaign.utf8.lexicographicallyPrecedes(b.campaign.utf8) }
            if a.rule != b.rule { return a.rule.utf8.lexicographicallyPrecedes(b.rule.utf8) }
            return false
        }
        let sorted = keys.sorted(by: before)
        var ranks = campaigns.campaigns.map { [Int](repeating: 0, count: $0.rules.count) }
        var other = 0, current = 0
        for (k, key) in sorted.enumerated() {
            if k > 0 && before(sorted[k - 1], key) { current = k }
            if key.c < 0 { other = current } else { ranks[key.c][key.r] = current }
        }
        rank = ranks
        otherRank = other
    }

    /// The arbitration rank of a trigger's rule (see `rank`).
    func rank(of t: Trigger) -> Int {
        guard rank.indices.contains(t.campaign), rank[t.campaign].indices.contains(t.rule) else { return otherRank }
        return rank[t.campaign][t.rule]
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
        let ranks = triggers.map { rank(of: $0) }
        return triggers.indices.sorted { a, b in
            let ta = triggers[a].time, tb = triggers[b].time
            if ta != tb { return ta < tb }
            if ranks[a] != ranks[b] { return ranks[a] < ranks[b] }
            return a < b
        }.map { triggers[$0] }
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

    /// As `decide`, continuing after the decisions of earlier runs (`prior`, ascending by time,
    /// all earlier than every trigger): they count for caps and the per-user limit.
    public func decide(userId: String, triggers: [Trigger], prior: [Seed]) -> [Decision] {
        run(userId: userId, triggers: triggers, explain: false, prior: prior).map(\.decision)
    }

    /// As `decide`, with each decision's reason in words (for `geocampaign explain`).
    ///
    ///     capped: "cap of test-drive reached: 1 delivered or held out in the last 7d (cap 1 per 7d)"
    public func explainDecisions(userId: String, triggers: [Trigger]) -> [ExplainedDecision] {
        run(userId: userId, triggers: triggers, explain: true)
    }

    /// As `explainDecisions`, continuing after the decisions of earlier runs (`prior`, as for
    /// `decide(userId:triggers:prior:)`): reasons name them as a one-shot run names them.
    public func explainDecisions(userId: String, triggers: [Trigger], prior: [Seed]) -> [ExplainedDecision] {
        run(userId: userId, triggers: triggers, explain: true, prior: prior)
    }

    /// As `explainDecisions(userId:triggers:prior:)` with each decision's reason but not its
    /// reason in words (`why` is empty): what `evaluate --include-suppressed` writes, without
    /// composing sentences it does not print.
    func reasons(userId: String, triggers: [Trigger], prior: [Seed]) -> [ExplainedDecision] {
        run(userId: userId, triggers: triggers, explain: true, prior: prior, words: false)
    }

    /// Arbitration; with `explain`, each decision's reason, and with `words` too, the reason in words.
    func run(userId: String, triggers: [Trigger], explain: Bool, prior: [Seed] = [], words: Bool = true) -> [ExplainedDecision] {
        // Delivered and held-out times per capped offer (by its slot), few per user; with
        // `explain`, the decisions themselves beside the times, to name them in reasons. Decisions
        // of earlier runs (`prior`, a stateful run) count by their times, and are named as this
        // run's are when their campaign and rule are still known (`priorDecision`).
        var capHistory: [(slot: Int, times: [Int64], decisions: [PriorDecision])] = []
        var deliveredTimes: [Int64] = []
        var delivered: [PriorDecision] = []
        // With decisions of earlier runs, the times arrays are made at their largest size at
        // once (grown one append at a time, a user's few seeds cost an allocation each).
        let most = prior.isEmpty ? 0 : prior.count + triggers.count
        deliveredTimes.reserveCapacity(most)
        for (seed, place) in zip(prior, places(of: prior, explain: explain)) {
            let named = place.rule.map {
                PriorDecision(trigger: Trigger(time: seed.time, campaign: $0.campaign, rule: $0.rule, evidence: []),
                              status: seed.delivered ? .delivered : .heldOut)
            }
            if place.capped {
                if let h = capHistory.firstIndex(where: { $0.slot == place.slot }) {
                    capHistory[h].times.append(seed.time)
                    if let named { capHistory[h].decisions.append(named) }
                } else {
                    var times: [Int64] = []
                    times.reserveCapacity(most)
                    times.append(seed.time)
                    if capHistory.isEmpty { capHistory.reserveCapacity(4) }
                    capHistory.append((place.slot, times, named.map { [$0] } ?? []))
                }
            }
            if seed.delivered {
                deliveredTimes.append(seed.time)
                if let named { delivered.append(named) }
            }
        }
        var lastDelivered: Trigger?
        var heldOut = [Int8](repeating: -1, count: campaigns.campaigns.count)
        var out: [ExplainedDecision] = []
        out.reserveCapacity(triggers.count)
        for trigger in arbitrationOrder(triggers) {
            let t = trigger.time
            let known = offerSlot.indices.contains(trigger.campaign) && offerSlot[trigger.campaign].indices.contains(trigger.rule)
            let slot = known ? offerSlot[trigger.campaign][trigger.rule] : -1
            let cap = known ? capOfRule[trigger.campaign][trigger.rule] : nil
            let history = cap == nil ? nil : capHistory.firstIndex { $0.slot == slot }
            let status: DecisionStatus
            var why = ""
            var reason = DecisionReason.delivered
            let capCount = cap.map { Self.count(history.map { capHistory[$0].times } ?? [], within: $0.perMs, at: t) } ?? 0
            lazy var offer = self.offer(of: trigger)
            if let cap, capCount >= cap.count {
                status = .capped
                if explain {
                    if words {
                        why = "cap of \(offer?.id ?? "?") reached: \(capCount) delivered or held out "
                            + Self.windowText(cap.perMs) + " (cap \(Self.capText(cap)))"
                    }
                    reason = .capped(cap: cap, by: history.map { Array(capHistory[$0].decisions.suffix(capCount)) } ?? [])
                }
            } else if isHeldOut(campaign: trigger.campaign, userId: userId, cache: &heldOut) {
                status = .heldOut
                if explain {
                    let c = campaigns.campaigns[trigger.campaign]
                    let bucket = Holdout.bucket(campaignId: c.id, userId: userId)
                    if words { why = "user is in the \(Self.percentText(c.holdoutPercent))% holdout of \(c.id) (bucket \(bucket) of 10000)" }
                    reason = .heldOut(percent: c.holdoutPercent, bucket: bucket)
                }
            } else if let last = lastDelivered, last.time == t {
                status = .lowerPriority
                if explain {
                    if words { why = "\(name(of: last)) was delivered at the same instant" }
                    reason = .lowerPriority(by: PriorDecision(trigger: last, status: .delivered))
                }
            } else if let limit = campaigns.settings.perUserLimit,
                      Self.count(deliveredTimes, within: limit.perMs, at: t) >= limit.count {
                status = .limited
                if explain {
                    let n = Self.count(deliveredTimes, within: limit.perMs, at: t)
                    if words { why = "per-user limit reached: \(n) \(n == 1 ? "delivery" : "deliveries") " + Self.windowText(limit.perMs) + " (limit \(Self.capText(limit)))" }
                    reason = .limited(limit: limit, by: Array(delivered.suffix(n)))
                }
            } else {
                status = .delivered
                if explain && words { why = "delivered: no cap, holdout, earlier delivery at this instant or limit stood in the way" }
            }
            if cap != nil && (status == .delivered || status == .heldOut) {
                let prior = explain ? [PriorDecision(trigger: trigger, status: status)] : []
                if let h = history {
                    capHistory[h].times.append(t)
                    capHistory[h].decisions += prior
                } else {
                    capHistory.append((slot, [t], prior))
                }
            }
            if status == .delivered {
                deliveredTimes.append(t)
                if explain { delivered.append(PriorDecision(trigger: trigger, status: status)) }
                lastDelivered = trigger
            }
            out.append(ExplainedDecision(decision: Decision(trigger: trigger, status: status), why: why, reason: reason))
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
    func isHeldOut(campaign: Int, userId: String, cache: inout [Int8]) -> Bool {
        guard campaigns.campaigns.indices.contains(campaign) else { return false }
        if cache[campaign] >= 0 { return cache[campaign] == 1 }
        let result = Holdout.isHeldOut(campaignId: campaigns.campaigns[campaign].id, userId: userId,
                                       percent: campaigns.campaigns[campaign].holdoutPercent)
        cache[campaign] = result ? 1 : 0
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
}
