extension SequenceEvaluator {
    /// `gym (at least 30m) then juice-bar within 2h`.
    var phrase: String {
        condition.steps.map { step in
            ExplainText.selector(step.selector) + (step.minDwellMs > 0 ? " (at least \(ExplainText.duration(step.minDwellMs)))" : "")
        }.joined(separator: " then ") + " within " + ExplainText.duration(condition.withinMs)
    }

    /// Where a match held, or how many steps happened in order, or the quickest complete match.
    func report(_ ctx: EvaluationContext, names: [String], time: LocalTimeFormat? = nil) -> ConditionReport {
        let k = condition.steps.count
        let held = intervals(ctx).intervals
        func name(_ visit: Int) -> String { uniqueNames([ctx.visits[visit].region], names).first ?? "?" }
        if let first = held.first {
            let chain = evidence(at: first.start, ctx).map(name)
            return ConditionReport(kind: .sequence, held: held, achieved: k, required: k, thresholdMs: condition.withinMs,
                                   regions: chain, description: "\(phrase): " + ExplainText.held(held, tEnd: ctx.domain.end - 1, time: time))
        }
        let table = table(ctx)
        // The longest run of steps that happened in order (earliest entries first keep the most room).
        var chain: [Int] = []
        var enter = Int64.min
        for j in 0..<k {
            let idx = table.firstAfter(j, enter)
            guard idx < table.occ[j].count else { break }
            chain.append(table.occ[j][idx].visit)
            enter = table.occ[j][idx].enter
        }
        if chain.count < k {
            let step = condition.steps[chain.count]
            let what = ExplainText.selector(step.selector)
            let done = chain.isEmpty ? "" : chain.map(name).joined(separator: " then ") + "; "
            let after = chain.isEmpty ? "" : " after that"
            let candidates = ctx.matching(masks[chain.count]).filter { chain.isEmpty || ctx.visits[$0].enter > enter }
            var reason = "no visit to \(what)\(after)"
            var best: Int64?
            if step.minDwellMs > 0, let longest = candidates.max(by: { ctx.visits[$0].duration < ctx.visits[$1].duration }) {
                best = ctx.visits[longest].duration
                reason = "no stay at \(what)\(after) lasted \(ExplainText.duration(step.minDwellMs)) (longest \(ExplainText.duration(ctx.visits[longest].duration)))"
            }
            return ConditionReport(kind: .sequence, held: [], achieved: chain.count, required: k, bestMs: best,
                                   thresholdMs: best == nil ? nil : step.minDwellMs, regions: chain.map(name),
                                   description: "\(chain.count) of \(k) steps in order: \(done)\(reason)")
        }
        // Every step happened in order, but never within the window: the quickest complete match.
        var quickest = Int64.max, quickestFirst: Occurrence?
        for o in table.occ[0] {
            let rest = table.tail(after: 0, enter: o.enter)
            guard rest != Int64.max else { continue }
            let span = max(o.q, rest) - o.q
            if span < quickest { quickest = span; quickestFirst = o }
        }
        var regions: [String] = []
        if let o = quickestFirst {
            let t = o.q + quickest
            var e = o.enter
            regions = [name(o.visit)]
            for j in 1..<k {
                var idx = table.firstAfter(j, e)
                while idx < table.occ[j].count && table.best[j][idx] > t { idx += 1 }
                guard idx < table.occ[j].count else { break }
                regions.append(name(table.occ[j][idx].visit))
                e = table.occ[j][idx].enter
            }
        }
        return ConditionReport(kind: .sequence, held: [], achieved: k, required: k, bestMs: quickest, thresholdMs: condition.withinMs,
                               regions: regions,
                               description: "all \(k) steps happened in order (\(regions.joined(separator: " then "))), but the quickest took "
                                   + "\(ExplainText.duration(quickest)), needs less than \(ExplainText.duration(condition.withinMs))")
    }
}
