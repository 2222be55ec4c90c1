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
    ///   - zone: the zone of the times people read (default: the campaigns' zone, as `explain`).
    public static func render(_ m: MeasurementResult, campaigns: CampaignSet, user: ReportUser?, zone: LocalTimeFormat? = nil) -> [UInt8] {
        ReportTime.$format.withValue(LocalTimeFormat.forSet(campaigns, override: zone)) {
            page(m, campaigns: campaigns, user: user)
        }
    }

    private static func page(_ m: MeasurementResult, campaigns: CampaignSet, user: ReportUser?) -> [UInt8] {
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(ReportAssets.contentSecurityPolicy)\">\n"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        s += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        s += "<title>Campaign report</title>\n<style>\n\(ReportAssets.css)\n</style>\n</head>\n<body>\n<main>\n"
        s += overview(m, campaigns: campaigns)
        s += mapSection(m, campaigns: campaigns, user: user)
        if let user { s += userSection(user, campaigns: campaigns) }
        for c in m.campaigns { s += campaignSection(c, campaign: campaigns.campaigns[c.index]) }
        s += "<p class=\"note\">Made by geocampaign report. Times are in \(ReportTime.zoneName) (--tz changes it). How to read the lift honestly: docs/report.md.</p>\n"
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
}
