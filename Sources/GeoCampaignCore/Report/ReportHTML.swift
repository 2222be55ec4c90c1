/// `geocampaign report` in HTML (measurement.md 5): one self-contained page that a browser opens
/// offline (no request of any kind: its Content-Security-Policy forbids them), for a laptop or a
/// phone: the overview, a map of the regions colored by visits (pan and zoom), and per campaign
/// its lift with the interval drawn, its reach per rule and offer, and its decisions per day.
public enum ReportHTML {
    /// The sentence of measurement.md 3 when `enough_data` is false.
    public static let tooFewWords = "too few users to tell: at least 100 users and 25 conversions per group are needed"

    /// The page as UTF-8 bytes.
    /// - Parameters:
    ///   - m: the measurement.
    ///   - campaigns: the campaigns it was made from.
    ///   - user: a user to draw on the map and list, if any.
    /// - Complexity: O(vertices of the regions + campaigns' rules, offers and days + the user's fixes).
    public static func render(_ m: MeasurementResult, campaigns: CampaignSet, user: ReportUser?) -> [UInt8] {
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(ReportAssets.contentSecurityPolicy)\">\n"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        s += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        s += "<title>Campaign report</title>\n<style>\n\(ReportAssets.css)\n</style>\n</head>\n<body>\n<main>\n"
        s += overview(m, campaigns: campaigns)
        s += mapSection(m, campaigns: campaigns, user: user)
        if let user { s += userSection(user, campaigns: campaigns) }
        for c in m.campaigns { s += campaignSection(c, campaign: campaigns.campaigns[c.index]) }
        s += "<p class=\"note\">Made by geocampaign report. Times are in \(ReportTime.zoneName). How to read the lift honestly: docs/report.md.</p>\n"
        s += "</main>\n<script>\n\(ReportAssets.js)\n</script>\n</body>\n</html>\n"
        return Array(s.utf8)
    }

    static func overview(_ m: MeasurementResult, campaigns: CampaignSet) -> String {
        var s = "<header>\n<h1>Campaign report</h1>\n"
        if let p = m.period {
            s += "<p class=\"muted\">From \(ReportTime.text(p.from)) to \(ReportTime.text(p.to)) (the latest location in the data).</p>\n"
        } else {
            s += "<p class=\"muted\">The history holds no location.</p>\n"
        }
        s += "<ul class=\"facts\">"
        s += "<li><b>\(HumanNumber.count(m.users))</b>users</li>"
        s += "<li><b>\(HumanNumber.count(m.fixes))</b>locations</li>"
        s += "<li><b>\(HumanNumber.count(m.lines))</b>lines read</li>"
        s += "<li><b>\(HumanNumber.count(m.campaigns.count))</b>campaigns</li>"
        s += "<li><b>\(HumanNumber.count(m.campaigns.filter { $0.lift != nil }.count))</b>with a goal</li></ul>\n"
        s += "<nav>" + m.campaigns.map { "<a href=\"#c-\(HTMLText.escape($0.campaign))\">\(HTMLText.escape($0.campaign))</a>" }.joined(separator: " ") + "</nav>\n"
        return s + "</header>\n"
    }

    static func mapSection(_ m: MeasurementResult, campaigns: CampaignSet, user: ReportUser?) -> String {
        let maxVisits = m.campaigns.flatMap(\.regionVisits).max() ?? 0
        var s = "<section id=\"map-section\">\n<h2>Map</h2>\n<div class=\"map-tools\">"
        s += "<label>Campaign <select id=\"map-campaign\"><option value=\"\">all campaigns</option>"
        for c in m.campaigns { s += "<option value=\"\(HTMLText.escape(c.campaign))\">\(HTMLText.escape(c.campaign))</option>" }
        s += "</select></label>"
        s += "<button type=\"button\" id=\"zoom-in\" aria-label=\"Zoom in\">+</button><button type=\"button\" id=\"zoom-out\" aria-label=\"Zoom out\">\u{2212}</button><button type=\"button\" id=\"zoom-reset\">Reset</button>"
        s += "<span class=\"note\">visits per region: <span class=\"heat\"></span> 1 to \(HumanNumber.count(max(1, maxVisits))) (log scale); grey: none</span></div>\n"
        s += "<div class=\"map-box\">\n" + RegionMap.svg(m, campaigns: campaigns, user: user) + "\n</div>\n"
        s += "<p id=\"map-info\" class=\"muted\" aria-live=\"polite\"></p>\n"
        s += "<p class=\"note\">Drag to move, scroll or pinch to zoom, tap a region for its name and visits. Web Mercator projection, drawn by geocampaign: no map tiles.</p>\n"
        return s + "</section>\n"
    }

    static func userSection(_ u: ReportUser, campaigns: CampaignSet) -> String {
        let o = u.outcome
        var s = "<section id=\"user\">\n<h2>User \(HTMLText.escape(o.userId))</h2>\n"
        s += "<p>\(HumanNumber.count(u.fixes.count)) locations from \(ReportTime.text(o.t0)) to \(ReportTime.text(o.tEnd)). On the map: the track (blue line), where each visit began (white squares) and each decision (dots colored by status).</p>\n"
        s += legend()
        s += "<h3>Visits</h3>\n<div class=\"scroll\"><table class=\"user-visits\"><thead><tr><th>campaign</th><th>region</th><th>entered</th><th>left</th><th class=\"num\">stayed</th></tr></thead><tbody>\n"
        var rows: [(Int64, String)] = []
        for (c, visits) in o.visits.enumerated() {
            let campaign = campaigns.campaigns[c]
            for v in visits {
                let left = v.exit.map { ReportTime.text($0) + (v.reason == .gap ? " (signal lost)" : "") } ?? "still inside"
                rows.append((v.enter, "<tr><td>\(HTMLText.escape(campaign.id))</td><td>\(HTMLText.escape(campaign.regions[Int(v.region)].id))</td><td>\(ReportTime.text(v.enter))</td><td>\(left)</td><td class=\"num\">\(ReportTime.duration(v.duration))</td></tr>\n"))
            }
        }
        s += rows.sorted { $0.0 < $1.0 }.map(\.1).joined()
        if rows.isEmpty { s += "<tr><td colspan=\"5\" class=\"muted\">no visit</td></tr>\n" }
        s += "</tbody></table></div>\n<h3>Decisions</h3>\n<div class=\"scroll\"><table class=\"user-decisions\"><thead><tr><th>time</th><th>campaign</th><th>rule</th><th>offer</th><th>status</th></tr></thead><tbody>\n"
        for d in o.decisions {
            let c = campaigns.campaigns[d.trigger.campaign], r = c.rules[d.trigger.rule]
            s += "<tr><td>\(ReportTime.text(d.trigger.time))</td><td>\(HTMLText.escape(c.id))</td><td>\(HTMLText.escape(r.id))</td><td>\(HTMLText.escape(r.offer))</td><td><i class=\"status-\(d.status.rawValue)\" style=\"display:inline-block;width:10px;height:10px;border-radius:5px\"></i> \(d.status.rawValue)</td></tr>\n"
        }
        if o.decisions.isEmpty { s += "<tr><td colspan=\"5\" class=\"muted\">no decision</td></tr>\n" }
        return s + "</tbody></table></div>\n</section>\n"
    }

    static func legend() -> String {
        "<ul class=\"legend\">" + DayChart.stack.map { "<li><i class=\"status-\($0.rawValue)\"></i>\($0.rawValue.replacingOccurrences(of: "_", with: " "))</li>" }.joined() + "</ul>\n"
    }

    static func campaignSection(_ c: CampaignMeasurement, campaign: Campaign) -> String {
        let title = campaign.name.map { "\(HTMLText.escape($0)) <span class=\"muted\">(\(HTMLText.escape(c.campaign)))</span>" } ?? HTMLText.escape(c.campaign)
        var s = "<section class=\"campaign-report\" id=\"c-\(HTMLText.escape(c.campaign))\" data-campaign=\"\(HTMLText.escape(c.campaign))\">\n<h2>\(title)</h2>\n"
        s += "<p>\(HumanNumber.count(c.users)) users visited its regions"
        s += campaign.holdoutPercent > 0 ? "; holdout \(HumanNumber.decimal(campaign.holdoutPercent, digits: campaign.holdoutPercent.rounded() == campaign.holdoutPercent ? 0 : 1))%.</p>\n" : "; no holdout.</p>\n"
        s += "<h3>Lift</h3>\n" + liftSection(c.lift, holdout: campaign.holdoutPercent)
        s += "<h3>Reach per rule</h3>\n" + ruleTable(c)
        s += "<h3>Reach per offer</h3>\n" + offerTable(c)
        s += "<h3>Decisions per day</h3>\n" + legend() + DayChart.svg(c.decisionsByQuarterHour) + "\n"
        return s + "</section>\n"
    }

    static func bar(_ parts: [(String, Int)], of total: Int) -> String {
        let t = Double(max(1, total))
        return "<div class=\"bar\">" + parts.filter { $0.1 > 0 }.map { "<span class=\"\($0.0)\" style=\"width:\(HumanNumber.decimal(100 * Double($0.1) / t, digits: 2))%\"></span>" }.joined() + "</div>"
    }

    static func ruleTable(_ c: CampaignMeasurement) -> String {
        let top = max(1, c.rules.map(\.triggered).max() ?? 1)
        var s = "<div class=\"scroll\"><table class=\"reach-rules\"><thead><tr><th>rule</th><th class=\"num\">users triggered</th><th class=\"num\">triggers</th><th>users</th></tr></thead><tbody>\n"
        for r in c.rules {
            s += "<tr data-rule=\"\(HTMLText.escape(r.rule))\"><td>\(HTMLText.escape(r.rule))</td><td class=\"num\">\(HumanNumber.count(r.triggered))</td><td class=\"num\">\(HumanNumber.count(r.triggers))</td><td class=\"barcell\">\(bar([("users", r.triggered)], of: top))</td></tr>\n"
        }
        return s + "</tbody></table></div>\n"
    }

    static func offerTable(_ c: CampaignMeasurement) -> String {
        let totals = c.offers.map { o in o.decisions.values.reduce(0, +) }
        let top = max(1, totals.max() ?? 1)
        var s = "<div class=\"scroll\"><table class=\"reach-offers\"><thead><tr><th>offer</th><th class=\"num\">users reached</th>"
        for st in ReportJSON.statusOrder { s += "<th class=\"num\">\(st.rawValue.replacingOccurrences(of: "_", with: " "))</th>" }
        s += "<th>decisions</th></tr></thead><tbody>\n"
        for o in c.offers {
            s += "<tr data-offer=\"\(HTMLText.escape(o.offer))\"><td>\(HTMLText.escape(o.offer))</td><td class=\"num\">\(HumanNumber.count(o.reached))</td>"
            for st in ReportJSON.statusOrder { s += "<td class=\"num\">\(HumanNumber.count(o.decisions[st] ?? 0))</td>" }
            s += "<td class=\"barcell\">\(bar(DayChart.stack.map { ("status-\($0.rawValue)", o.decisions[$0] ?? 0) }, of: top))</td></tr>\n"
        }
        return s + "</tbody></table></div>\n"
    }

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
