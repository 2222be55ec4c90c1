/// Evaluates `inside` (semantics 3.1): the union over matching visits of `[enter, exit)`, or
/// `[enter, inf)` for a visit open at `Tend`.
///
///     inside: { regions: [mall] }
///     visits: mall [10:00, 10:30), mall [11:00, open)      Tend 12:00
///     holds:  [10:00, 10:30) and [11:00, 12:00]            triggers at 10:00 and 11:00
final class InsideEvaluator: Sendable {
    let mask: RegionMask
    let selector: RegionSelector

    init(mask: RegionMask, selector: RegionSelector) {
        self.mask = mask
        self.selector = selector
    }

    /// The interval of visit `v` during which the user is inside.
    static func span(_ v: Visit) -> Interval { Interval(v.enter, v.exit ?? Int64.max) }

    /// - Complexity: O(v log v) in the number of visits.
    func intervals(_ ctx: EvaluationContext) -> IntervalSet {
        var spans: [Interval] = []
        for v in ctx.visits where mask.contains(v.region) { spans.append(Self.span(v)) }
        return spans.isEmpty ? .empty : IntervalSet(spans).clipped(to: ctx.domain)
    }

    /// The matching visits holding at `t`.
    func evidence(at t: Int64, _ ctx: EvaluationContext) -> [Int] {
        ctx.visits.indices.filter { mask.contains(ctx.visits[$0].region) && Self.span(ctx.visits[$0]).contains(t) }
    }
}
