/// Evaluates `visited` (semantics 3.2). A matching visit *qualifies* if its duration is at least
/// `min_dwell`; its occurrence is `q = enter + min_dwell` and it covers `[q, q + within)` (or
/// `[q, inf)` without `within`). The condition holds where the number of covering visits (with
/// `distinct`, of different regions among them) is at least `at_least`.
///
///     visited: { tags: [car-dealer], at_least: 3, distinct: true, within: 72h, min_dwell: 5m }
///     dealer-1 Mon 09:00-09:20  q = Mon 09:05, covers until Thu 09:05
///     dealer-7 Tue 10:00-10:30  q = Tue 10:05
///     dealer-4 Wed 15:00-15:40  q = Wed 15:05   -> 3 distinct: holds [Wed 15:05, Thu 09:05)
///     dealer-4 Wed 15:00-15:04  (4 minutes)     -> does not qualify: 2 of 3, never holds
final class VisitedEvaluator: Sendable {
    let mask: RegionMask
    let condition: VisitedCondition
    let regionCount: Int

    init(mask: RegionMask, condition: VisitedCondition, regionCount: Int) {
        self.mask = mask
        self.condition = condition
        self.regionCount = regionCount
    }

    /// One qualifying visit: index into the visits, its region and the span it covers.
    struct Occurrence {
        let visit: Int
        let region: Int32
        let span: Interval
    }

    /// The span `[q, q + within)` that a matching visit covers, or nil when it does not qualify.
    func span(_ v: Visit) -> Interval? {
        guard v.duration >= condition.minDwellMs else { return nil }
        let q = addSaturating(v.enter, condition.minDwellMs)
        return Interval(q, condition.withinMs.map { addSaturating(q, $0) } ?? Int64.max)
    }

    /// The qualifying visits and the spans they cover.
    func occurrences(_ ctx: EvaluationContext) -> [Occurrence] {
        ctx.matching(mask).compactMap { i in
            let v = ctx.visits[i]
            return span(v).map { Occurrence(visit: i, region: v.region, span: $0) }
        }
    }

    /// Whether the condition can hold at or after `t` (`CompiledCondition.mayHold`): a
    /// qualifying visit whose span ends after `t` (the count only rises at a span's start).
    func mayHold(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        guard condition.atLeast >= 1 else { return true }
        return visits.contains { mask.contains($0.region) && (span($0)?.end ?? .min) > t }
    }

    /// Whether an interval can start at or after `t` (`CompiledCondition.mayStart`): the count
    /// rises only at a qualifying visit's `q`.
    func mayStart(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        guard condition.atLeast >= 1 else { return true }
        return visits.contains { mask.contains($0.region) && (span($0)?.start ?? .min) >= t }
    }

    /// The count at every change point: `(time, count)` pairs, the count holding from that time
    /// until the next pair. Counts are visits, or distinct regions with `distinct`.
    /// - Complexity: O(v log v).
    func counts(_ occurrences: [Occurrence]) -> [(time: Int64, count: Int)] {
        var events: [(time: Int64, delta: Int, region: Int32)] = []
        events.reserveCapacity(occurrences.count * 2)
        for o in occurrences where o.span.start < o.span.end {
            events.append((o.span.start, 1, o.region))
            if o.span.end != Int64.max { events.append((o.span.end, -1, o.region)) }
        }
        events.sort { $0.time < $1.time }
        // With `distinct`, a counter per region among the occurrences (not per region of the
        // campaign: the cost must not grow with the campaign's size).
        let limit = max(regionCount, 1)
        var slots: [Int32] = []
        if condition.distinct {
            slots = occurrences.compactMap { $0.region >= 0 && Int($0.region) < limit ? $0.region : nil }.sorted()
            var unique = 0
            for r in slots where unique == 0 || slots[unique - 1] != r {
                slots[unique] = r
                unique += 1
            }
            slots.removeSubrange(unique...)
        }
        var perRegion = [Int](repeating: 0, count: slots.count)
        var count = 0
        var out: [(time: Int64, count: Int)] = []
        var i = 0
        while i < events.count {
            let time = events[i].time
            while i < events.count && events[i].time == time {
                let e = events[i]
                if condition.distinct {
                    if let r = Self.slot(of: e.region, in: slots) {
                        let before = perRegion[r]
                        perRegion[r] += e.delta
                        if before == 0 && perRegion[r] > 0 { count += 1 }
                        if before > 0 && perRegion[r] == 0 { count -= 1 }
                    }
                } else {
                    count += e.delta
                }
                i += 1
            }
            out.append((time, count))
        }
        return out
    }

    /// The position of `region` in the sorted `slots`, or nil.
    static func slot(of region: Int32, in slots: [Int32]) -> Int? {
        var lo = 0, hi = slots.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slots[mid] < region { lo = mid + 1 } else { hi = mid }
        }
        return lo < slots.count && slots[lo] == region ? lo : nil
    }

    /// - Complexity: O(v log v).
    func intervals(_ ctx: EvaluationContext) -> IntervalSet {
        let steps = counts(occurrences(ctx))
        var raw: [Interval] = []
        var openedAt: Int64?
        for (time, count) in steps {
            if count >= condition.atLeast {
                if openedAt == nil { openedAt = time }
            } else if let s = openedAt {
                raw.append(Interval(s, time))
                openedAt = nil
            }
        }
        if let s = openedAt { raw.append(Interval(s, Int64.max)) }
        return IntervalSet(raw).clipped(to: ctx.domain)
    }

    /// The qualifying visits covering `t`.
    func evidence(at t: Int64, _ ctx: EvaluationContext) -> [Int] {
        occurrences(ctx).filter { $0.span.contains(t) }.map(\.visit)
    }
}
