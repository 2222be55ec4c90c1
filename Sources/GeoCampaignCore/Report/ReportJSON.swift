/// `geocampaign report --format json` (measurement.md 5): one JSON object, indented for reading.
/// An absent figure is `null`; campaigns come in id order, rules and offers in file order.
public enum ReportJSON {
    /// Statuses in the order they are printed under `decisions`.
    public static let statusOrder: [DecisionStatus] = [.delivered, .heldOut, .capped, .lowerPriority, .limited]

    /// The report of `m` as UTF-8 JSON text ending with a newline.
    /// - Complexity: O(campaigns + rules + offers + goal regions).
    public static func render(_ m: MeasurementResult) -> [UInt8] {
        var w = Writer()
        w.open("{")
        w.key("period")
        if let p = m.period {
            w.open("{")
            w.key("from"); w.time(p.from); w.comma()
            w.key("to"); w.time(p.to)
            w.close("}")
        } else {
            w.raw("null")
        }
        w.comma()
        w.key("lines"); w.int(m.lines); w.comma()
        w.key("fixes"); w.int(m.fixes); w.comma()
        w.key("users"); w.int(m.users); w.comma()
        w.key("campaigns")
        w.list(m.campaigns) { w, c in campaign(c, &w) }
        w.close("}")
        w.raw("\n")
        return w.out
    }

    private static func campaign(_ c: CampaignMeasurement, _ w: inout Writer) {
        w.open("{")
        w.key("campaign"); w.string(c.campaign); w.comma()
        w.key("users"); w.int(c.users); w.comma()
        w.key("rules")
        w.list(c.rules) { w, r in
            w.open("{")
            w.key("rule"); w.string(r.rule); w.comma()
            w.key("triggered"); w.int(r.triggered); w.comma()
            w.key("triggers"); w.int(r.triggers)
            w.close("}")
        }
        w.comma()
        w.key("offers")
        w.list(c.offers) { w, o in
            w.open("{")
            w.key("offer"); w.string(o.offer); w.comma()
            w.key("reached"); w.int(o.reached); w.comma()
            w.key("decisions")
            w.open("{")
            for (i, s) in statusOrder.enumerated() {
                if i > 0 { w.comma() }
                w.key(s.rawValue); w.int(o.decisions[s] ?? 0)
            }
            w.close("}")
            w.close("}")
        }
        w.comma()
        w.key("lift")
        if let l = c.lift { lift(l, &w) } else { w.raw("null") }
        w.close("}")
    }

    private static func lift(_ cl: CampaignLift, _ w: inout Writer) {
        let l = cl.lift
        w.open("{")
        w.key("goal")
        w.open("{")
        w.key("regions"); w.inlineStrings(cl.goalRegions); w.comma()
        w.key("within_s"); w.number(Double(cl.goal.withinMs) / 1000); w.comma()
        w.key("min_dwell_s"); w.number(Double(cl.goal.minDwellMs) / 1000)
        w.close("}")
        w.comma()
        for (name, arm) in [("treated", l.treated), ("holdout", l.holdout)] {
            w.key(name)
            w.open("{")
            w.key("n"); w.int(arm.n); w.comma()
            w.key("converted"); w.int(arm.converted); w.comma()
            w.key("rate"); w.number(arm.rate)
            w.close("}")
            w.comma()
        }
        w.key("pending"); w.int(cl.pending); w.comma()
        w.key("absolute_lift"); w.number(l.absoluteLift); w.comma()
        w.key("absolute_ci95"); w.interval(l.absoluteCI95); w.comma()
        w.key("relative_lift"); w.number(l.relativeLift); w.comma()
        w.key("relative_ci95"); w.interval(l.relativeCI95); w.comma()
        w.key("incremental_conversions"); w.number(l.incrementalConversions); w.comma()
        w.key("p_value"); w.number(l.pValue); w.comma()
        w.key("enough_data"); w.raw(l.enoughData ? "true" : "false")
        w.close("}")
    }

    /// Appends indented JSON to a byte buffer.
    private struct Writer {
        var out: [UInt8] = []
        var depth = 0

        mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        mutating func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
        mutating func open(_ bracket: String) {
            raw(bracket)
            depth += 1
            newline()
        }
        mutating func close(_ bracket: String) {
            depth -= 1
            newline()
            raw(bracket)
        }
        mutating func comma() {
            raw(",")
            newline()
        }
        mutating func key(_ k: String) {
            JSONText.appendString(k, to: &out)
            raw(": ")
        }
        mutating func string(_ s: String) { JSONText.appendString(s, to: &out) }
        mutating func int(_ v: Int) { JSONText.appendInt(Int64(v), to: &out) }
        mutating func time(_ ms: Int64) {
            out.append(0x22)
            Timestamp.append(ms, to: &out)
            out.append(0x22)
        }
        /// A finite number in its shortest round-trip form; null when absent or not finite.
        mutating func number(_ v: Double?) {
            guard let v, v.isFinite else { return raw("null") }
            raw("\(v)")
        }
        mutating func interval(_ i: ConfidenceInterval?) {
            guard let i, i.low.isFinite, i.high.isFinite else { return raw("null") }
            raw("[")
            number(i.low)
            raw(", ")
            number(i.high)
            raw("]")
        }
        mutating func inlineStrings(_ items: [String]) {
            raw("[")
            for (i, s) in items.enumerated() {
                if i > 0 { raw(", ") }
                string(s)
            }
            raw("]")
        }
        mutating func list<T>(_ items: [T], _ item: (inout Writer, T) -> Void) {
            if items.isEmpty { return raw("[]") }
            open("[")
            for (i, x) in items.enumerated() {
                if i > 0 { comma() }
                item(&self, x)
            }
            close("]")
        }
    }
}
