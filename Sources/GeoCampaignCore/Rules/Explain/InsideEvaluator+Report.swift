extension InsideEvaluator {
    /// Where the user was inside, or that they never were.
    func report(_ ctx: EvaluationContext, names: [String], time: LocalTimeFormat? = nil, phrase: String) -> ConditionReport {
        let held = intervals(ctx).intervals
        let regions = uniqueNames(ctx.matching(mask).map { ctx.visits[$0].region }, names)
        let text = held.isEmpty ? "never \(phrase)" : "\(phrase): " + ExplainText.held(held, tEnd: ctx.domain.end - 1, time: time)
        return ConditionReport(kind: .inside, held: held, regions: regions, description: text)
    }
}

/// Region ids of region indices, first occurrence order, without repeats.
func uniqueNames(_ regions: [Int32], _ names: [String]) -> [String] {
    var seen: Set<Int32> = []
    return regions.compactMap { r in
        guard seen.insert(r).inserted, r >= 0, Int(r) < names.count else { return nil }
        return names[Int(r)]
    }
}
