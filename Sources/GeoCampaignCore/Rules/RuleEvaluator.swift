/// Evaluates the rules of one campaign on one user's visits (semantics 3): where each rule's
/// condition, ANDed with the campaign's `active` window and clipped to the user's timeline
/// `[T0, Tend]`, holds, and the triggers at the start of each maximal interval.
///
/// Immutable once built: one evaluator serves every user, from any thread.
///
///     let evaluator = RuleEvaluator(campaign: campaign, campaignIndex: 0)
///     let triggers = evaluator.triggers(visits: visits, t0: firstFix, tEnd: lastFix)
public struct RuleEvaluator: Sendable {
    /// What is compiled once per campaign, shared by every copy of the evaluator (a copy costs
    /// one reference count, whatever the campaign's size).
    final class Compiled: Sendable {
        let campaign: Campaign
        let conditions: [CompiledCondition]
        let active: Interval
        init(campaign: Campaign) {
            self.campaign = campaign
            conditions = campaign.rules.map { CompiledCondition($0.condition, in: campaign) }
            active = Interval(campaign.active?.fromMs ?? Int64.min, campaign.active?.untilMs ?? Int64.max)
        }

        /// A copy of `other` with conditions of its own (`CompiledCondition.workerCopy()`).
        init(copying other: Compiled) {
            campaign = other.campaign
            conditions = other.conditions.map { $0.workerCopy() }
            active = other.active
        }
    }

    let compiled: Compiled
    /// The campaign evaluated.
    public var campaign: Campaign { compiled.campaign }
    /// Its index in `CampaignSet.campaigns`, copied into every trigger.
    public let campaignIndex: Int
    var conditions: [CompiledCondition] { compiled.conditions }
    /// The `active` window `[from, until)`, unbounded sides as Int64.min / Int64.max.
    var active: Interval { compiled.active }

    /// Compiles the campaign's rules: selectors become region masks, zones are resolved.
    /// - Complexity: O(rules x regions).
    public init(campaign: Campaign, campaignIndex: Int) {
        compiled = Compiled(campaign: campaign)
        self.campaignIndex = campaignIndex
    }

    /// An evaluator equal to `other` that shares none of its compiled conditions, for another
    /// worker thread (threads sharing one evaluator contend for its reference counts): the same
    /// as compiling the campaign again, at the cost of copying the region masks.
    /// - Complexity: O(rules x regions), a copy.
    init(copying other: RuleEvaluator) {
        compiled = Compiled(copying: other.compiled)
        campaignIndex = other.campaignIndex
    }

    /// The triggers of every rule for one user, ordered by time, then rule index.
    ///
    /// - Parameters:
    ///   - visits: the user's visits of this campaign (`Visit.region` indexes `campaign.regions`).
    ///   - t0: the user's first accepted fix (Unix ms).
    ///   - tEnd: the user's last accepted fix (Unix ms); the timeline is closed there.
    ///   - from: triggers earlier than this are left out (a resumed user's old horizon: earlier
    ///     runs decided them). The triggers kept are exactly those of `from: .min` at or after
    ///     `from`: every condition's set is a function of the visits (all of them are passed)
    ///     and of the instant, cut to the timeline, so the timeline starts at `from - 1` when
    ///     that is later than `t0`: the sets then agree with the whole timeline's from that
    ///     instant on, and an instant at or after `from` starts an interval in one exactly when
    ///     it does in the other (a start at `from` itself needs `from - 1` in the domain). A
    ///     resumed user's `during` windows and `not` are then computed over the new days only,
    ///     not again over all the days since `t0`.
    /// - Returns: one trigger per start of a maximal interval; `evidence` indexes `visits`,
    ///   deduplicated and ordered by enter, then region id, then exit.
    /// - Complexity: O(rules x k x v log v) for v visits and sequences of k steps, plus the days of
    ///   the timeline (from `from`) for `during`.
    public func triggers(visits: [Visit], t0: Int64, tEnd: Int64, from: Int64 = .min) -> [Trigger] {
        guard t0 <= tEnd else { return [] }
        let start = from > t0 && from <= tEnd ? from - 1 : t0
        let domain = IntervalSet.timeline(t0: start, tEnd: tEnd)
        // A trigger lies at or after `from`, in the timeline and in the active window: none when
        // the window ends before the first such instant or starts after the timeline.
        let first = max(from, domain.start)
        guard active.end > first && active.start < domain.end else { return [] }
        let ctx = EvaluationContext(visits: visits, domain: domain)
        var out: [Trigger] = []
        // A rule that cannot hold at or after `first` over these visits (a resumed user's kept
        // visits all end before the old horizon, or no visit matches) has no trigger to give;
        // nor one none of whose intervals can start then, when neither the timeline's start nor
        // the active window's can make a start there (a resumed user: the timeline starts at
        // `from - 1`).
        let startsMatter = first > domain.start && active.start < first
        for rule in conditions.indices where conditions[rule].mayHold(atOrAfter: first, visits)
            && (!startsMatter || conditions[rule].mayStart(atOrAfter: first, visits)) {
            let (evaluated, set) = evaluate(rule: rule, ctx)
            for t in set.starts where t >= from {
                out.append(Trigger(time: t, campaign: campaignIndex, rule: rule,
                                   evidence: orderedEvidence(evaluated.evidence(at: t, ctx), visits)))
            }
        }
        out.sort { ($0.time, $0.rule) < ($1.time, $1.rule) }
        return out
    }

    /// Where rule `rule` holds for one user (condition AND active window, clipped to `[t0, tEnd]`).
    /// - Complexity: as `triggers` for one rule.
    public func intervals(rule: Int, visits: [Visit], t0: Int64, tEnd: Int64) -> IntervalSet {
        guard t0 <= tEnd, conditions.indices.contains(rule) else { return .empty }
        let ctx = EvaluationContext(visits: visits, domain: IntervalSet.timeline(t0: t0, tEnd: tEnd))
        return evaluate(rule: rule, ctx).1
    }

    func evaluate(rule: Int, _ ctx: EvaluationContext) -> (EvaluatedCondition, IntervalSet) {
        let evaluated = conditions[rule].evaluate(ctx)
        let window = IntervalSet(start: max(active.start, ctx.domain.start), end: min(active.end, ctx.domain.end))
        return (evaluated, evaluated.set.intersection(window))
    }

    /// Deduplicates visit indices and orders them by enter, then region id (UTF-8 bytes), then exit.
    func orderedEvidence(_ raw: [Int], _ visits: [Visit]) -> [Int] {
        if raw.count <= 1 { return raw }
        // Sorted with the index as the last key, so repeats of an index end up side by side.
        var sorted = raw.sorted { a, b in
            let va = visits[a], vb = visits[b]
            if va.enter != vb.enter { return va.enter < vb.enter }
            let ra = regionId(va.region), rb = regionId(vb.region)
            if ra != rb { return ra.utf8.lexicographicallyPrecedes(rb.utf8) }
            let ea = va.exit ?? Int64.max, eb = vb.exit ?? Int64.max
            return ea != eb ? ea < eb : a < b
        }
        var kept = 1
        for k in 1..<sorted.count where sorted[k] != sorted[kept - 1] {
            sorted[kept] = sorted[k]
            kept += 1
        }
        sorted.removeSubrange(kept...)
        return sorted
    }

    /// The id of region index `region`, or "" when out of range.
    func regionId(_ region: Int32) -> String {
        let i = Int(region)
        let regions = compiled.campaign.regions
        return i >= 0 && i < regions.count ? regions[i].id : ""
    }
}
