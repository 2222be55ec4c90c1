/// A condition evaluated for one user: where it holds, and the same for its parts.
struct EvaluatedCondition {
    /// The compiled condition.
    let node: CompiledCondition
    /// Where it holds, clipped to the timeline.
    let set: IntervalSet
    /// The evaluated sub-conditions (`all`, `any`, `not`), in order.
    let parts: [EvaluatedCondition]

    /// The visits that made the condition true at `t` (semantics 4.4), unsorted, possibly repeated.
    func evidence(at t: Int64, _ ctx: EvaluationContext) -> [Int] {
        switch node {
        case .inside(let e): return e.evidence(at: t, ctx)
        case .visited(let e): return e.evidence(at: t, ctx)
        case .dwelled(let e): return e.evidence(at: t, ctx)
        case .sequence(let e): return e.evidence(at: t, ctx)
        case .during, .not: return []
        case .all, .any:
            var out: [Int] = []
            for p in parts where p.set.contains(t) { out += p.evidence(at: t, ctx) }
            return out
        }
    }
}
