/// The section of the user drawn with `--user`: their visits and decisions as tables.
extension ReportHTML {
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
}
