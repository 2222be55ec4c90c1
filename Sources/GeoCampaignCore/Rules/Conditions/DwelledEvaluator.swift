/// Evaluates `dwelled` (semantics 3.3): each matching visit whose duration is strictly more than
/// `over` covers `[enter + over, exit)`, or `[enter + over, inf)` if open. Union.
///
///     dwelled: { regions: [lorrenzillos], over: 30m }
///     visit [12:00, 12:45)  -> holds [12:30, 12:45), triggers at 12:30
///     visit [12:00, 12:30)  -> duration equals over: never holds
///     open visit entered 12:00, last seen 12:20, Tend 13:00 -> duration 20m: never holds
final class DwelledEvaluator: Sendable {
    let mask: RegionMask
    let selector: RegionSelector
    let overMs: Int64

    init(mask: RegionMask, selector: RegionSelector, overMs: Int64) {
        self.mask = mask
        self.selector = selector
        self.overMs = overMs
    }

    /// The interval visit `v` covers, or nil when it is not longer than `over`.
    func span(_ v: Visit) -> Interval? {
        guard v.duration > overMs else { return nil }
        return Interval(addSaturating(v.enter, overMs), v.exit ?? Int64.max)
    }

    /// - Complexity: O(v log v).
    func intervals(_ ctx: EvaluationContext) -> IntervalSet {
        var spans: [Interval] = []
        for v in ctx.visits where mask.contains(v.region) {
            if let s = span(v) { spans.append(s) }
        }
        return spans.isEmpty ? .empty : IntervalSet(spans).clipped(to: ctx.domain)
    }

    /// The matching visits whose dwell interval holds `t`.
    func evidence(at t: Int64, _ ctx: EvaluationContext) -> [Int] {
        ctx.visits.indices.filter { mask.contains(ctx.visits[$0].region) && (span(ctx.visits[$0])?.contains(t) ?? false) }
    }
}
