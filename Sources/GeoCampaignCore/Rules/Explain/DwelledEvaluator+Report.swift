extension DwelledEvaluator {
    /// Where the stay was long enough, or the longest stay against `over`.
    func report(_ ctx: EvaluationContext, names: [String], time: LocalTimeFormat? = nil, phrase: String) -> ConditionReport {
        let held = intervals(ctx).intervals
        let matching = ctx.matching(mask)
        if !held.isEmpty {
            let regions = uniqueNames(matching.filter { span(ctx.visits[$0]) != nil }.map { ctx.visits[$0].region }, names)
            return ConditionReport(kind: .dwelled, held: held, thresholdMs: overMs, regions: regions,
                                   description: "\(phrase): " + ExplainText.held(held, tEnd: ctx.domain.end - 1, time: time))
        }
        guard let longest = matching.max(by: { ctx.visits[$0].duration < ctx.visits[$1].duration }) else {
            return ConditionReport(kind: .dwelled, held: [], thresholdMs: overMs,
                                   description: "never inside \(ExplainText.selector(selector)), needs a stay of more than \(ExplainText.duration(overMs))")
        }
        let v = ctx.visits[longest]
        let name = uniqueNames([v.region], names)
        let verb = v.exit == nil ? "has lasted" : "was"
        return ConditionReport(kind: .dwelled, held: [], bestMs: v.duration, thresholdMs: overMs, regions: name,
                               description: "longest stay at \(name.first ?? "?") \(verb) \(ExplainText.duration(v.duration)), needs more than \(ExplainText.duration(overMs))")
    }
}
