extension RuleEvaluator {
    /// How far past the end of a history `explain` looks for where a rule would have held had the
    /// history gone on with no further visit (a visit open at the end ends at its last fix).
    static let lookAheadMs: Int64 = 400 * 86_400_000

    /// Explains every rule of the campaign for one user: where each held and its triggers, or where
    /// it came closest when it never held (`geocampaign explain`).
    ///
    /// - Parameters: as `triggers(visits:t0:tEnd:)`; `time` writes instants in local time
    ///   (RFC 3339 UTC when nil).
    /// - Returns: one explanation per rule, in rule order.
    /// - Complexity: a few evaluations per rule.
    public func explain(visits: [Visit], t0: Int64, tEnd: Int64, time: LocalTimeFormat? = nil) -> [RuleExplanation] {
        conditions.indices.compactMap { explain(rule: $0, visits: visits, t0: t0, tEnd: tEnd, time: time) }
    }

    /// Explains rule `rule` for one user; nil when there is no such rule.
    ///
    ///     never held: 2 of 3 distinct car-dealer regions within 72h: dealer-1, dealer-7
    ///     held once: 2026-03-09T21:38:16Z to 2026-03-09T22:00:33Z
    ///     never held: ...; the history ends 2012-12-14 12:24 CET; had it gone on with no further
    ///     visit, all of (...) would have been reached on 2012-12-24 12:00 CET
    public func explain(rule: Int, visits: [Visit], t0: Int64, tEnd: Int64, time: LocalTimeFormat? = nil) -> RuleExplanation? {
        guard conditions.indices.contains(rule) else { return nil }
        let ctx = EvaluationContext(visits: visits, domain: IntervalSet.timeline(t0: t0, tEnd: tEnd))
        let names = campaign.regions.map(\.id)
        let report = conditions[rule].report(ctx, names: names, time: time)
        let held = evaluate(rule: rule, ctx).1.intervals
        let outsideOnly = held.isEmpty && report.everHeld
        var text: String
        if !held.isEmpty {
            text = ExplainText.held(held, tEnd: tEnd, time: time)
        } else if outsideOnly {
            text = "never held while the campaign was active (\(activeText(time))); the condition itself "
                + (report.held.first.map { "held from " + ExplainText.interval($0, tEnd: tEnd, time: time) } ?? "held")
        } else {
            text = "never held: " + report.description
        }
        var later: Int64?
        if held.isEmpty, let t = heldAfterEnd(rule: rule, visits: visits, t0: t0, tEnd: tEnd) {
            later = t
            text += "; the history ends \(ExplainText.instant(tEnd, time)); had it gone on with no further visit, "
                + "\(conditions[rule].phrase) would have been reached on \(ExplainText.instant(t, time))"
        }
        let r = campaign.rules[rule]
        return RuleExplanation(rule: rule, ruleId: r.id, offer: r.offer, held: held, triggers: held.map(\.start),
                               condition: report, onlyOutsideActiveWindow: outsideOnly, description: text, heldAfterEnd: later)
    }

    /// Where rule `rule`, which never held on `[t0, tEnd]`, would first hold had the history gone
    /// on up to `lookAheadMs` past its end with no further visit (an open visit ends at its last
    /// fix); nil when it would not.
    /// - Complexity: one evaluation of the rule on the longer timeline.
    func heldAfterEnd(rule: Int, visits: [Visit], t0: Int64, tEnd: Int64) -> Int64? {
        let closed = visits.map { v in v.exit == nil ? Visit(region: v.region, enter: v.enter, exit: v.lastSeen, lastSeen: v.lastSeen, reason: .gap) : v }
        let longer = EvaluationContext(visits: closed, domain: Interval(t0, addSaturating(tEnd, Self.lookAheadMs)))
        return evaluate(rule: rule, longer).1.intervals.first { $0.start > tEnd }?.start
    }

    /// `from 2026-03-03T08:00:00Z until 2026-03-13T07:00:00Z` (in local time with `time`).
    func activeText(_ time: LocalTimeFormat? = nil) -> String {
        var parts: [String] = []
        if active.start != Int64.min { parts.append("from " + ExplainText.instant(active.start, time)) }
        if active.end != Int64.max { parts.append("until " + ExplainText.instant(active.end, time)) }
        return parts.isEmpty ? "always" : parts.joined(separator: " ")
    }
}
