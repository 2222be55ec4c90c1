/// A condition with its selectors resolved against one campaign's regions, ready to evaluate.
indirect enum CompiledCondition: Sendable {
    case inside(InsideEvaluator)
    case visited(VisitedEvaluator)
    case dwelled(DwelledEvaluator)
    case sequence(SequenceEvaluator)
    case during(DuringEvaluator)
    case all([CompiledCondition])
    case any([CompiledCondition])
    case not(CompiledCondition)

    /// Resolves `condition` against `campaign`.
    init(_ condition: Condition, in campaign: Campaign) {
        switch condition {
        case .inside(let c):
            self = .inside(InsideEvaluator(mask: RegionMask(c.selector, in: campaign), selector: c.selector))
        case .visited(let c):
            self = .visited(VisitedEvaluator(mask: RegionMask(c.selector, in: campaign), condition: c,
                                             regionCount: campaign.regions.count))
        case .dwelled(let c):
            self = .dwelled(DwelledEvaluator(mask: RegionMask(c.selector, in: campaign), selector: c.selector, overMs: c.overMs))
        case .sequence(let c):
            self = .sequence(SequenceEvaluator(masks: c.steps.map { RegionMask($0.selector, in: campaign) }, condition: c))
        case .during(let c):
            self = .during(DuringEvaluator(c))
        case .all(let parts):
            self = .all(parts.map { CompiledCondition($0, in: campaign) })
        case .any(let parts):
            self = .any(parts.map { CompiledCondition($0, in: campaign) })
        case .not(let inner):
            self = .not(CompiledCondition(inner, in: campaign))
        }
    }

    /// The same condition with evaluators of its own, for another worker thread: each mask with
    /// bits of its own (`RegionMask.copy()`) and `during` with a window cache of its own, so that
    /// the threads do not contend for the evaluators' reference counts. Equal to compiling the
    /// condition again (`init(_:in:)`), without matching every region against the selectors.
    /// - Complexity: O(regions) per mask.
    func workerCopy() -> CompiledCondition {
        switch self {
        case .inside(let e): return .inside(InsideEvaluator(mask: e.mask.copy(), selector: e.selector))
        case .visited(let e): return .visited(VisitedEvaluator(mask: e.mask.copy(), condition: e.condition, regionCount: e.regionCount))
        case .dwelled(let e): return .dwelled(DwelledEvaluator(mask: e.mask.copy(), selector: e.selector, overMs: e.overMs))
        case .sequence(let e): return .sequence(SequenceEvaluator(masks: e.masks.map { $0.copy() }, condition: e.condition))
        case .during(let e): return .during(DuringEvaluator(e.condition))
        case .all(let parts): return .all(parts.map { $0.workerCopy() })
        case .any(let parts): return .any(parts.map { $0.workerCopy() })
        case .not(let inner): return .not(inner.workerCopy())
        }
    }

    /// Whether the condition can hold at some instant at or after `t` over `visits`, whatever
    /// the timeline: false only when it cannot. A leaf can hold at or after `t` only through a
    /// matching visit that qualifies (its duration, as the leaf counts it) and whose span ends
    /// after `t` (`inside`, `dwelled`: the exit; `visited`: `q + within`; `sequence`: the first
    /// step's `q + within`, and every step needs an occurrence); `during` and `not` can hold
    /// anywhere. `all` needs every part, `any` one. One pass over the visits at most, no
    /// allocation, so that `RuleEvaluator.triggers` skips the rules that cannot start at or
    /// after a resumed user's old horizon, or that no visit of the user matches.
    /// - Complexity: O(v) per leaf for v visits.
    func mayHold(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        switch self {
        case .inside(let e): return visits.contains { e.mask.contains($0.region) && InsideEvaluator.span($0).end > t }
        case .dwelled(let e): return visits.contains { e.mask.contains($0.region) && (e.span($0)?.end ?? .min) > t }
        case .visited(let e): return e.mayHold(atOrAfter: t, visits)
        case .sequence(let e): return e.mayHold(atOrAfter: t, visits)
        case .during, .not: return true
        case .all(let parts): return parts.allSatisfy { $0.mayHold(atOrAfter: t, visits) }
        case .any(let parts): return parts.contains { $0.mayHold(atOrAfter: t, visits) }
        }
    }

    /// Whether an interval of the condition's set can start at or after `t` over `visits`,
    /// before any clipping to a timeline: false only when none can. A leaf's intervals start
    /// only where a matching visit's span starts (`inside`: the enter; `dwelled`: `enter +
    /// over`; `visited`, whose count rises only there: `q`; `sequence`: the `q` of some step's
    /// occurrence, and it must hold there); `during` and `not` can start anywhere. An interval
    /// of `any` starts where one of a part's does; of `all`, where one part's does while every
    /// part holds. So a resumed user's rule over visits that all began before its old horizon
    /// (a `visited` window still open, a long stay) is not evaluated again.
    /// - Complexity: O(v) per leaf for v visits.
    func mayStart(atOrAfter t: Int64, _ visits: [Visit]) -> Bool {
        switch self {
        case .inside(let e): return visits.contains { e.mask.contains($0.region) && InsideEvaluator.span($0).start >= t }
        case .dwelled(let e): return visits.contains { e.mask.contains($0.region) && (e.span($0)?.start ?? .min) >= t }
        case .visited(let e): return e.mayStart(atOrAfter: t, visits)
        case .sequence(let e): return e.mayStart(atOrAfter: t, visits)
        case .during, .not: return true
        case .all(let parts):
            return parts.allSatisfy { $0.mayHold(atOrAfter: t, visits) } && parts.contains { $0.mayStart(atOrAfter: t, visits) }
        case .any(let parts): return parts.contains { $0.mayStart(atOrAfter: t, visits) }
        }
    }

    /// Evaluates the condition and every sub-condition for one user (each set clipped to the timeline).
    func evaluate(_ ctx: EvaluationContext) -> EvaluatedCondition {
        switch self {
        case .inside(let e): return EvaluatedCondition(node: self, set: e.intervals(ctx), parts: [])
        case .visited(let e): return EvaluatedCondition(node: self, set: e.intervals(ctx), parts: [])
        case .dwelled(let e): return EvaluatedCondition(node: self, set: e.intervals(ctx), parts: [])
        case .sequence(let e): return EvaluatedCondition(node: self, set: e.intervals(ctx), parts: [])
        case .during(let e): return EvaluatedCondition(node: self, set: e.intervals(ctx), parts: [])
        case .all(let parts):
            let evaluated = parts.map { $0.evaluate(ctx) }
            var set = IntervalSet(start: ctx.domain.start, end: ctx.domain.end)
            for p in evaluated { set = set.intersection(p.set) }
            return EvaluatedCondition(node: self, set: set, parts: evaluated)
        case .any(let parts):
            let evaluated = parts.map { $0.evaluate(ctx) }
            var set = IntervalSet.empty
            for p in evaluated { set = set.union(p.set) }
            return EvaluatedCondition(node: self, set: set, parts: evaluated)
        case .not(let inner):
            let evaluated = inner.evaluate(ctx)
            return EvaluatedCondition(node: self, set: evaluated.set.complement(within: ctx.domain), parts: [evaluated])
        }
    }
}
