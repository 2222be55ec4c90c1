import GeoCampaignCore

/// The text of `explain`: for a marketer who asks "why did (not) this user get the offer?".
/// Instants are local: each campaign's section in its zone, the header in the zone they share
/// (`LocalTimeFormat.perCampaign` / `forSet`, or `--tz`).
enum ExplainReport {
    /// What to print: all campaigns and offers, or only one campaign and/or one offer. Filters
    /// narrow the text only; the decisions were made with every campaign.
    struct Filter {
        var campaign: String?
        var offer: String?
    }

    static func render(_ e: UserExplanation, campaigns: CampaignSet, zone: LocalTimeFormat, zones: [LocalTimeFormat],
                       filter: Filter = Filter()) -> String {
        let o = e.outcome
        var s = "User \(o.userId)\n"
        s += "Heard from \(zone.string(o.t0)) to \(zone.string(o.tEnd)): \(o.fixCount) fix\(o.fixCount == 1 ? "" : "es")"
        if e.skippedAfterUntil > 0 { s += " (\(e.skippedAfterUntil) more after --until, not considered)" }
        s += ".\n"
        for (c, campaign) in campaigns.campaigns.enumerated() {
            if let only = filter.campaign, only != campaign.id { continue }
            if let offer = filter.offer, !campaign.rules.contains(where: { $0.offer == offer }) { continue }
            let time = zones.indices.contains(c) ? zones[c] : zone
            s += "\nCampaign \(campaign.id)" + (campaign.name.map { " (\($0))" } ?? "") + "\n"
            let f = e.fixes[c]
            s += "  fixes: \(f.used) used"
            if f.skippedForAccuracy > 0 { s += ", \(f.skippedForAccuracy) skipped for poor accuracy" }
            s += "\n"
            let visits = o.visits[c]
            if visits.isEmpty {
                s += "  visits: none\n"
            } else {
                s += "  visits:\n"
                for v in visits {
                    let region = campaign.regions[Int(v.region)]
                    s += "    \(region.id)" + (region.name.map { " (\($0))" } ?? "") + ": entered \(time.string(v.enter)), "
                    if let exit = v.exit {
                        s += "left \(time.string(exit)) after \(Words.duration(v.duration))"
                        if v.reason == .gap { s += " (the track broke off: no fix for longer than max_gap)" }
                    } else {
                        s += "still inside at the last fix, \(Words.duration(v.duration)) so far (last seen \(time.string(v.lastSeen)))"
                    }
                    s += "\n"
                }
            }
            s += "  rules:\n"
            for r in e.rules[c] where filter.offer == nil || r.offer == filter.offer {
                s += "    \(r.ruleId) -> \(r.offer): \(r.description)\n"
            }
            let decisions = e.decisions.filter { d in
                d.decision.trigger.campaign == c
                    && (filter.offer == nil || campaign.rules[d.decision.trigger.rule].offer == filter.offer)
            }
            if decisions.isEmpty {
                s += "  decisions: none\n"
            } else {
                s += "  decisions:\n"
                for d in decisions { s += "    " + decisionLine(d, campaigns: campaigns, time: time) + "\n" }
            }
        }
        return s
    }

    /// `2026-11-17 12:12:38 PST lunch-coupon by rule lunch-at-competitor: delivered: ...`.
    static func decisionLine(_ d: ExplainedDecision, campaigns: CampaignSet, time: LocalTimeFormat) -> String {
        let campaign = campaigns.campaigns[d.decision.trigger.campaign]
        let rule = campaign.rules[d.decision.trigger.rule]
        return "\(time.string(d.decision.trigger.time)) \(rule.offer) by rule \(rule.id): " + DecisionReasonText.statusAndReason(d, campaigns: campaigns, time: time)
    }
}
