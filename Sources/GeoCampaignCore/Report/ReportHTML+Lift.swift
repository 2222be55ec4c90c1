/// The lift part of a campaign's section: the groups, the figures, the interval drawn and the
/// verdict, worded as measurement.md 3 asks.
extension ReportHTML {
    static func goalWords(_ l: CampaignLift) -> String {
        var places = l.goal.selector.regions.map { HTMLText.escape($0) }
        if !l.goal.selector.tags.isEmpty {
            places.append("any region tagged " + l.goal.selector.tags.map { HTMLText.escape($0) }.joined(separator: " or "))
        }
        let dwell = l.goal.minDwellMs > 0 ? " of at least \(ReportTime.duration(l.goal.minDwellMs))" : ""
        return "A user converts with a visit\(dwell) to \(places.joined(separator: " or ")) that begins within \(ReportTime.duration(l.goal.withinMs)) after the user's first decision of the campaign (of any status)."
    }

    /// "p = 0.036", or "p &lt; 0.001" (escaped for HTML).
    static func pText(_ p: Double) -> String {
        let v = HumanNumber.pValue(p)
        return HTMLText.escape(v.hasPrefix("<") ? "p " + v : "p = " + v)
    }

    static func liftSection(_ cl: CampaignLift?, holdout: Double) -> String {
        guard let cl else {
            return "<p class=\"muted no-goal\">No goal, so no lift: add a goal to the campaign file (docs/campaign-format.md) to compare the treated users with the holdout.</p>\n"
        }
        let l = cl.lift
        var s = "<div class=\"lift\" data-enough=\"\(l.enoughData)\">\n<p>\(goalWords(cl))</p>\n"
        s += "<div class=\"scroll\"><table class=\"lift-arms\"><thead><tr><th>group</th><th class=\"num\">users measured</th><th class=\"num\">converted</th><th class=\"num\">rate</th></tr></thead><tbody>\n"
        for (name, arm) in [("treated (offered, delivered or not)", l.treated), ("holdout (never sent anything)", l.holdout)] {
            s += "<tr><td>\(name)</td><td class=\"num\">\(HumanNumber.count(arm.n))</td><td class=\"num\">\(HumanNumber.count(arm.converted))</td><td class=\"num\">\(arm.rate.map { HumanNumber.percent($0) } ?? "n/a")</td></tr>\n"
        }
        s += "</tbody></table></div>\n"
        s += "<p class=\"note\">\(HumanNumber.count(cl.pending)) pending: users decided on too recently for their goal window to have ended by the latest location; they are left out of both groups.</p>\n"
        s += "<dl>"
        if let a = l.absoluteLift, let ci = l.absoluteCI95 {
            s += "<dt>absolute lift</dt><dd>\(HumanNumber.points(a)) (95% interval \(HumanNumber.points(ci.low)) to \(HumanNumber.points(ci.high)))</dd>"
        } else {
            let why = holdout > 0 ? "a group has no measured user" : "the campaign has no holdout, so there is nobody to compare with: set holdout: 10% (for example)"
            s += "<dt>absolute lift</dt><dd>n/a: \(why)</dd>"
        }
        if let r = l.relativeLift {
            s += "<dt>relative lift</dt><dd>\(HumanNumber.percent(r, signed: true))"
            if let ci = l.relativeCI95 { s += " (95% interval \(HumanNumber.percent(ci.low, signed: true)) to \(HumanNumber.percent(ci.high, signed: true)))" }
            s += "</dd>"
        } else {
            s += "<dt>relative lift</dt><dd>n/a: no holdout user converted, so there is no rate to compare with</dd>"
        }
        if let inc = l.incrementalConversions {
            s += "<dt>incremental conversions</dt><dd>\(HumanNumber.decimal(inc, digits: 1, signed: true)) among the treated</dd>"
        }
        s += "<dt>p-value</dt><dd>" + (l.pValue.map { HTMLText.escape(HumanNumber.pValue($0)) } ?? "n/a: no difference can be tested (no conversions, or all converted)") + "</dd></dl>\n"
        if let chart = LiftChart.svg(l) {
            s += chart + "\n<p class=\"note\">The bar is the 95% interval of the absolute lift, the dot the estimate; the dashed line is no effect.</p>\n"
        }
        if !l.enoughData {
            s += "<p class=\"verdict not-enough\">Not a result: \(tooFewWords). Until then no difference here, however large it looks, is significant.</p>\n"
        } else if let p = l.pValue, p < 0.05 {
            let way = (l.absoluteLift ?? 0) > 0 ? "more" : "fewer"
            s += "<p class=\"verdict significant\">Significant at the 5% level (\(pText(p))): treated users converted \(way) than the holdout. This holds for one look planned in advance, not for a look repeated until it shows something (docs/report.md).</p>\n"
        } else {
            s += "<p class=\"verdict not-significant\">No significant difference at the 5% level" + (l.pValue.map { " (\(pText($0)))" } ?? "") + ": the data are consistent with no effect.</p>\n"
        }
        return s + "</div>\n"
    }
}
