extension CompiledCondition {
    /// What the condition asks for, in words: `inside mall`, `3 distinct car-dealer regions within 72h`.
    var phrase: String {
        switch self {
        case .inside(let e): return "inside " + ExplainText.selector(e.selector)
        case .visited(let e): return e.phrase
        case .dwelled(let e): return "stayed in \(ExplainText.selector(e.selector)) more than \(ExplainText.duration(e.overMs))"
        case .sequence(let e): return e.phrase
        case .during(let e):
            let c = e.condition
            return "during \(ExplainText.days(c.days)) \(ExplainText.hours(c.startMinute, c.endMinute)) (\(c.timezone))"
        case .all(let parts): return "all of (" + parts.map(\.phrase).joined(separator: "; ") + ")"
        case .any(let parts): return "any of (" + parts.map(\.phrase).joined(separator: "; ") + ")"
        case .not(let inner): return "not " + inner.phrase
        }
    }

    /// Reports where the condition held for one user, or where it came closest.
    /// - Complexity: as evaluation, per node.
    func report(_ ctx: EvaluationContext, names: [String]) -> ConditionReport {
        let tEnd = ctx.domain.end - 1
        switch self {
        case .inside(let e): return e.report(ctx, names: names, phrase: phrase)
        case .visited(let e): return e.report(ctx, names: names)
        case .dwelled(let e): return e.report(ctx, names: names, phrase: phrase)
        case .sequence(let e): return e.report(ctx, names: names)
        case .during(let e):
            let held = e.intervals(ctx).intervals
            let text = held.isEmpty ? "the history never fell \(phrase)" : "\(phrase): " + ExplainText.held(held, tEnd: tEnd)
            return ConditionReport(kind: .during, held: held, description: text)
        case .all(let parts):
            let reports = parts.map { $0.report(ctx, names: names) }
            let held = evaluate(ctx).set.intervals
            let together = Self.mostAtOnce(reports)
            let text: String
            if !held.isEmpty {
                text = "\(phrase): " + ExplainText.held(held, tEnd: tEnd)
            } else if reports.contains(where: { !$0.everHeld }) {
                text = "not every part held: " + reports.filter { !$0.everHeld }.map(\.description).joined(separator: "; ")
            } else {
                text = "each part held at some time, but at most \(together) of \(parts.count) at once: "
                    + reports.map(\.description).joined(separator: "; ")
            }
            return ConditionReport(kind: .all, held: held, achieved: together, required: parts.count, description: text, parts: reports)
        case .any(let parts):
            let reports = parts.map { $0.report(ctx, names: names) }
            let held = evaluate(ctx).set.intervals
            let text = !held.isEmpty ? "\(phrase): " + ExplainText.held(held, tEnd: tEnd)
                : "no alternative held: " + reports.map(\.description).joined(separator: "; ")
            return ConditionReport(kind: .any, held: held, description: text, parts: reports)
        case .not(let inner):
            let report = inner.report(ctx, names: names)
            let held = evaluate(ctx).set.intervals
            let text = !held.isEmpty ? "\(phrase): " + ExplainText.held(held, tEnd: tEnd)
                : "\(inner.phrase) held for the whole history"
            return ConditionReport(kind: .not, held: held, description: text, parts: [report])
        }
    }

    /// The largest number of parts holding at one instant.
    static func mostAtOnce(_ reports: [ConditionReport]) -> Int {
        var best = 0
        for r in reports {
            for iv in r.held {
                best = max(best, reports.filter { other in other.held.contains { $0.contains(iv.start) } }.count)
            }
        }
        return best
    }
}
