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
}
