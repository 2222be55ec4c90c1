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
    func report(_ ctx: EvaluationContext, names: [String], time: LocalTimeFormat? = nil) -> ConditionReport {
        let tEnd = ctx.domain.end - 1
        switch self {
        case .inside(let e): return e.report(ctx, names: names, time: time, phrase: phrase)
        case .visited(let e): return e.report(ctx, names: names, time: time)
        case .dwelled(let e): return e.report(ctx, names: names, time: time, phrase: phrase)
        case .sequence(let e): return e.report(ctx, names: names, time: time)
        case .during(let e):
            let held = e.intervals(ctx).intervals
            let text = held.isEmpty ? "the history never fell \(phrase)" : "\(phrase): " + ExplainText.held(held, tEnd: tEnd, time: time)
            return ConditionReport(kind: .during, held: held, description: text)
        case .all(let parts):
            let reports = parts.map { $0.report(ctx, names: names, time: time) }
            let held = evaluate(ctx).set.intervals
            let together = Self.mostAtOnce(reports)
            let text: String
            if !held.isEmpty {
                text = "\(phrase): " + ExplainText.held(held, tEnd: tEnd, time: time)
            } else if reports.contains(where: { !$0.everHeld }) {
                text = "not every part held: " + reports.filter { !$0.everHeld }.map(\.description).joined(separator: "; ")
            } else {
                text = "each part held at some time, but at most \(together) of \(parts.count) at once: "
                    + reports.map(\.description).joined(separator: "; ")
                    + (Self.windowMiss(parts, reports, time: time).map { "; nearest miss: " + $0 } ?? "")
            }
            return ConditionReport(kind: .all, held: held, achieved: together, required: parts.count, description: text, parts: reports)
        case .any(let parts):
            let reports = parts.map { $0.report(ctx, names: names, time: time) }
            let held = evaluate(ctx).set.intervals
            let text = !held.isEmpty ? "\(phrase): " + ExplainText.held(held, tEnd: tEnd, time: time)
                : "no alternative held: " + reports.map(\.description).joined(separator: "; ")
            return ConditionReport(kind: .any, held: held, description: text, parts: reports)
        case .not(let inner):
            let report = inner.report(ctx, names: names, time: time)
            let held = evaluate(ctx).set.intervals
            let text = !held.isEmpty ? "\(phrase): " + ExplainText.held(held, tEnd: tEnd, time: time)
                : "\(inner.phrase) held for the whole history"
            return ConditionReport(kind: .not, held: held, description: text, parts: [report])
        }
    }

    /// For `all` with `during` parts that never held together with the others: how close the
    /// others came to a window, e.g. `stayed in competitor regions more than 10m from 14:08:30
    /// PST, 8m 30s after the window closed (14:00 PST)`; nil without `during` parts.
    static func windowMiss(_ parts: [CompiledCondition], _ reports: [ConditionReport], time: LocalTimeFormat?) -> String? {
        var windows: IntervalSet?, others: IntervalSet?
        var otherPhrases: [String] = []
        for (p, r) in zip(parts, reports) {
            let set = IntervalSet(r.held)
            if case .during = p {
                windows = windows.map { $0.intersection(set) } ?? set
            } else {
                others = others.map { $0.intersection(set) } ?? set
                otherPhrases.append(p.phrase)
            }
        }
        guard let w = windows?.intervals, let o = others?.intervals, !w.isEmpty, !o.isEmpty else { return nil }
        var best: (gap: Int64, text: String)?
        func clock(_ ms: Int64) -> String { time?.clock(ms) ?? Timestamp.string(ms) }
        for a in o {
            for win in w {
                if a.start >= win.end {
                    let gap = a.start - win.end
                    if gap < (best?.gap ?? Int64.max) {
                        best = (gap, "from \(ExplainText.instant(a.start, time)), \(ExplainText.duration(gap)) after the window closed (\(clock(win.end)))")
                    }
                } else if a.end <= win.start, a.end != Int64.max {
                    let gap = win.start - a.end
                    if gap < (best?.gap ?? Int64.max) {
                        best = (gap, "until \(ExplainText.instant(a.end, time)), \(ExplainText.duration(gap)) before the window opened (\(clock(win.start)))")
                    }
                }
            }
        }
        return best.map { otherPhrases.joined(separator: " and ") + " " + $0.text }
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
