extension RuleEvaluator {
    /// Explains every rule of the campaign for one user: where each held and its triggers, or where
    /// it came closest when it never held (`geocampaign explain`).
    ///
    /// - Parameters: as `triggers(visits:t0:tEnd:)`.
    /// - Returns: one explanation per rule, in rule order.
    /// - Complexity: a few evaluations per rule.
    public func explain(visits: [Visit], t0: Int64, tEnd: Int64) -> [RuleExplanation] {
        conditions.indices.compactMap { explain(rule: $0, visits: visits, t0: t0, tEnd: tEnd) }
    }

    /// Explains rule `rule` for one user; nil when there is no such rule.
    ///
    ///     never held: 2 of 3 distinct car-dealer regions within 72h: dealer-1, dealer-7
    ///     held once: 2026-03-09T21:38:16Z to 2026-03-09T22:00:33Z
    public func explain(rule: Int, visits: [Visit], t0: Int64, tEnd: Int64) -> RuleExplanation? {
        guard conditions.indices.contains(rule) else { return nil }
        let ctx = EvaluationContext(visits: visits, domain: IntervalSet.timeline(t0: t0, tEnd: tEnd))
        let names = campaign.regions.map(\.id)
        let report = conditions[rule].report(ctx, names: names)
        let held = evaluate(rule: rule, ctx).1.intervals
        let outsideOnly = held.isEmpty && report.everHeld
        let text: String
        if !held.isEmpty {
            text = ExplainText.held(held, tEnd: tEnd)
        } else if outsideOnly {
            text = "never held while the campaign was active (\(activeText)); the condition itself "
                + (report.held.first.map { "held from " + ExplainText.interval($0, tEnd: tEnd) } ?? "held")
        } else {
            text = "never held: " + report.description
        }
        let r = campaign.rules[rule]
        return RuleExplanation(rule: rule, ruleId: r.id, offer: r.offer, held: held, triggers: held.map(\.start),
                               condition: report, onlyOutsideActiveWindow: outsideOnly, description: text)
    }

    /// `from 2026-03-03T08:00:00Z until 2026-03-13T07:00:00Z`.
    var activeText: String {
        var parts: [String] = []
        if active.start != Int64.min { parts.append("from " + Timestamp.string(active.start)) }
        if active.end != Int64.max { parts.append("until " + Timestamp.string(active.end)) }
        return parts.isEmpty ? "always" : parts.joined(separator: " ")
    }
}
