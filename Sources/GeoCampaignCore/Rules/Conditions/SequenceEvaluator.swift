/// Evaluates `sequence` (semantics 3.4). Each step yields occurrences as in `visited` (a matching
/// visit lasting at least the step's `min_dwell`, at `q = enter + min_dwell`). A match takes one
/// occurrence per step, with enter times strictly increasing step by step (so the visits are
/// pairwise different); it covers `[qmax, q1 + within)`. The condition is the union over matches.
///
///     sequence: { steps: [{ regions: [gym], min_dwell: 30m }, { regions: [juice-bar] }], within: 2h }
///     gym 06:00-06:50 (q1 = 06:30), juice-bar 07:10-07:20 (q2 = 07:10) -> holds [07:10, 08:30)
///     gym 06:00-06:20 (20m < 30m)                                      -> no occurrence, never holds
///     juice-bar entered before the gym                                 -> wrong order, never holds
///
/// For each first-step occurrence only the smallest reachable `qmax` matters (all its matches end
/// at `q1 + within`), and a backward pass with suffix minima over enter-sorted occurrences finds it.
/// - Complexity: O(k v log v) for k steps and v visits.
final class SequenceEvaluator: Sendable {
    let masks: [RegionMask]
    let condition: SequenceCondition

    init(masks: [RegionMask], condition: SequenceCondition) {
        self.masks = masks
        self.condition = condition
    }

    /// One occurrence of a step.
    struct Occurrence {
        let visit: Int
        let enter: Int64
        let q: Int64
    }

    /// The dynamic-programming tables of one user.
    struct Table {
        /// Occurrences per step, sorted by enter (then visit index).
        let occ: [[Occurrence]]
        /// `best[j][i]`: the smallest max of q over chains from occurrence i of step j to the last
        /// step (Int64.max when no chain exists). Unused for j = 0.
        let best: [[Int64]]
        /// `suffixMin[j][i]`: min of `best[j][i...]`.
        let suffixMin: [[Int64]]

        /// Index of the first occurrence of step j entering strictly after `enter`.
        func firstAfter(_ j: Int, _ enter: Int64) -> Int {
            SequenceEvaluator.firstAfter(occ[j], enter)
        }

        /// Smallest reachable qmax of the later steps after an occurrence of step j entering at `enter`.
        func tail(after j: Int, enter: Int64) -> Int64 {
            guard j + 1 < occ.count else { return Int64.min }
            let k = firstAfter(j + 1, enter)
            return k < suffixMin[j + 1].count ? suffixMin[j + 1][k] : Int64.max
        }
    }

    /// The `q` (enter + the step's `min_dwell`) of a visit matching step `j`, or nil when it is
    /// too short to qualify.
    func q(step j: Int, _ v: Visit) -> Int64? {
        let minDwell = condition.steps[j].minDwellMs
        return v.duration >= minDwell ? addSaturating(v.enter, minDwell) : nil
    }

    /// The `q` of visit `v` as an occurrence of step `j`, or nil when it is not one.
    private func occurrenceQ(step j: Int, _ v: Visit) -> Int64? { masks[j].contains(v.region) ? q(step: j, v) : nil }

    func occurrences(step j: Int, _ ctx: EvaluationContext) -> [Occurrence] {
        ctx.matching(masks[j]).compactMap { i -> Occurrence? in
            let v = ctx.visits[i]
            return q(step: j, v).map { Occurrence(visit: i, enter: v.enter, q: $0) }
        }.sorted { ($0.enter, $0.visit) < ($1.enter, $1.visit) }
    }

    /// Whether the condition can hold at or after `t` (`CompiledCondition.mayHold`): every step
    /// needs an occurrence, and a match covers `[qmax, q1 + within)`, so some first-step
    /// occurrence must end its span after `t`.
    func mayHold(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        guard !condition.steps.isEmpty else { return true }
        guard visits.contains(where: { v in occurrenceQ(step: 0, v).map { addSaturating($0, condition.withinMs) > t } ?? false }) else { return false }
        return condition.steps.indices.dropFirst().allSatisfy { j in visits.contains { occurrenceQ(step: j, $0) != nil } }
    }

    /// Whether an interval can start at or after `t` (`CompiledCondition.mayStart`): a match
    /// starts at its largest `q`, the `q` of one of its occurrences, and holds there.
    func mayStart(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        guard mayHold(atOrAfter: t, visits) else { return false }
        return condition.steps.indices.contains { j in visits.contains { (occurrenceQ(step: j, $0) ?? .min) >= t } }
    }

    func table(_ ctx: EvaluationContext) -> Table {
        let k = condition.steps.count
        let occ = (0..<k).map { occurrences(step: $0, ctx) }
        var best = [[Int64]](repeating: [], count: k)
        var suffixMin = [[Int64]](repeating: [], count: k)
        for j in stride(from: k - 1, through: 1, by: -1) {
            var row = [Int64](repeating: Int64.max, count: occ[j].count)
            for (i, o) in occ[j].enumerated() {
                if j == k - 1 {
                    row[i] = o.q
                } else {
                    let nextIdx = Self.firstAfter(occ[j + 1], o.enter)
                    let rest = nextIdx < suffixMin[j + 1].count ? suffixMin[j + 1][nextIdx] : Int64.max
                    row[i] = rest == Int64.max ? Int64.max : max(o.q, rest)
                }
            }
            var sm = row
            if sm.count > 1 {
                for i in stride(from: sm.count - 2, through: 0, by: -1) { sm[i] = min(sm[i], sm[i + 1]) }
            }
            best[j] = row
            suffixMin[j] = sm
        }
        return Table(occ: occ, best: best, suffixMin: suffixMin)
    }

    /// Index of the first occurrence of `list` (sorted by enter) entering strictly after `enter`.
    static func firstAfter(_ list: [Occurrence], _ enter: Int64) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].enter <= enter { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The span covered by the best match starting at first-step occurrence `o`, if non-empty.
    func span(first o: Occurrence, _ table: Table) -> Interval? {
        let rest = table.tail(after: 0, enter: o.enter)
        guard rest != Int64.max else { return nil }
        let qmax = max(o.q, rest)
        let end = addSaturating(o.q, condition.withinMs)
        return qmax < end ? Interval(qmax, end) : nil
    }

    func intervals(_ ctx: EvaluationContext) -> IntervalSet {
        let t = table(ctx)
        return IntervalSet(t.occ[0].compactMap { span(first: $0, t) }).clipped(to: ctx.domain)
    }

    /// One match covering `t`: the latest first-step occurrence whose best match covers `t`, then
    /// for each later step the earliest-entering occurrence that still allows all q <= t.
    func evidence(at t: Int64, _ ctx: EvaluationContext) -> [Int] {
        let table = table(ctx)
        guard let first = table.occ[0].last(where: { span(first: $0, table)?.contains(t) ?? false }) else { return [] }
        var chain = [first.visit]
        var enter = first.enter
        for j in 1..<table.occ.count {
            var idx = table.firstAfter(j, enter)
            while idx < table.occ[j].count && table.best[j][idx] > t { idx += 1 }
            guard idx < table.occ[j].count else { return [] }
            chain.append(table.occ[j][idx].visit)
            enter = table.occ[j][idx].enter
        }
        return chain
    }
}
