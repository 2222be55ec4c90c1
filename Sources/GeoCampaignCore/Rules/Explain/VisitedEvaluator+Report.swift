extension VisitedEvaluator {
    /// `3 distinct car-dealer regions within 72h`, `2 visits to dealer-2 within 120h`.
    var phrase: String {
        "\(condition.atLeast) \(noun(condition.atLeast))" + windowText
    }

    private var windowText: String {
        condition.withinMs.map { " within " + ExplainText.duration($0) } ?? ""
    }

    private func noun(_ n: Int) -> String {
        let s = ExplainText.selector(condition.selector)
        if condition.distinct {
            return condition.selector.regions.isEmpty ? "distinct \(s)" : "distinct regions among \(s)"
        }
        return (n == 1 ? "visit to " : "visits to ") + s
    }

    /// Where enough visits were counted, or the best count reached and its regions.
    func report(_ ctx: EvaluationContext, names: [String], time: LocalTimeFormat? = nil) -> ConditionReport {
        let atLeast = condition.atLeast, minDwell = condition.minDwellMs
        let dwellNote = minDwell > 0 ? " (stays of at least \(ExplainText.duration(minDwell)) count)" : ""
        let held = intervals(ctx).intervals
        let occ = occurrences(ctx)
        if let first = held.first {
            let regions = uniqueNames(occ.filter { $0.span.contains(first.start) }.map(\.region), names)
            return ConditionReport(kind: .visited, held: held, achieved: atLeast, required: atLeast, regions: regions,
                                   description: "\(phrase)\(dwellNote): " + ExplainText.held(held, tEnd: ctx.domain.end - 1, time: time))
        }
        let matching = ctx.matching(mask).filter { ctx.visits[$0].enter < ctx.domain.end }
        if occ.isEmpty {
            guard let longest = matching.max(by: { ctx.visits[$0].duration < ctx.visits[$1].duration }) else {
                return ConditionReport(kind: .visited, held: [], achieved: 0, required: atLeast,
                                       description: "never visited \(ExplainText.selector(condition.selector)), needs \(phrase)")
            }
            let v = ctx.visits[longest]
            let name = uniqueNames([v.region], names)
            return ConditionReport(kind: .visited, held: [], achieved: 0, required: atLeast, bestMs: v.duration, thresholdMs: minDwell,
                                   regions: name,
                                   description: "no stay at \(ExplainText.selector(condition.selector)) lasted \(ExplainText.duration(minDwell)); "
                                       + "the longest was \(ExplainText.duration(v.duration)) at \(name.first ?? "?")")
        }
        // The best count on the timeline, and the visits counted then.
        let steps = counts(occ)
        var best = 0, bestAt = ctx.domain.start
        for (i, step) in steps.enumerated() {
            let next = i + 1 < steps.count ? steps[i + 1].time : Int64.max
            let from = max(step.time, ctx.domain.start)
            if from < min(next, ctx.domain.end), step.count > best { best = step.count; bestAt = from }
        }
        let covering = occ.filter { $0.span.contains(bestAt) }.sorted { ctx.visits[$0.visit].enter < ctx.visits[$1.visit].enter }
        let regions = condition.distinct ? uniqueNames(covering.map(\.region), names)
            : covering.compactMap { names.indices.contains(Int($0.region)) ? names[Int($0.region)] : nil }
        let list = regions.isEmpty ? "" : ": " + regions.joined(separator: ", ")
        return ConditionReport(kind: .visited, held: [], achieved: best, required: atLeast, thresholdMs: condition.withinMs,
                               regions: regions,
                               description: "\(best) of \(atLeast) \(noun(atLeast))\(windowText)\(list)\(dwellNote)")
    }
}
