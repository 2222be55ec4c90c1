import GeoCampaignCore

/// The text of `explain`: for a marketer who asks "why did (not) this user get the offer?".
enum ExplainReport {
    static func render(_ e: UserExplanation, campaigns: CampaignSet) -> String {
        let o = e.outcome
        var s = "User \(o.userId)\n"
        s += "Heard from \(Timestamp.string(o.t0)) to \(Timestamp.string(o.tEnd)): \(o.fixCount) fix\(o.fixCount == 1 ? "" : "es")"
        if e.skippedAfterUntil > 0 { s += " (\(e.skippedAfterUntil) more after --until, not considered)" }
        s += ".\n"
        for (c, campaign) in campaigns.campaigns.enumerated() {
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
                    s += "    \(region.id)" + (region.name.map { " (\($0))" } ?? "") + ": entered \(Timestamp.string(v.enter)), "
                    if let exit = v.exit {
                        s += "left \(Timestamp.string(exit)) after \(Words.duration(v.duration))"
                        if v.reason == .gap { s += " (the track broke off: no fix for longer than max_gap)" }
                    } else {
                        s += "still inside at the last fix, \(Words.duration(v.duration)) so far (last seen \(Timestamp.string(v.lastSeen)))"
                    }
                    s += "\n"
                }
            }
            s += "  rules:\n"
            for r in e.rules[c] {
                s += "    \(r.ruleId) -> \(r.offer): \(r.description)\n"
            }
            let decisions = e.decisions.filter { $0.decision.trigger.campaign == c }
            if decisions.isEmpty {
                s += "  decisions: none\n"
            } else {
                s += "  decisions:\n"
                for d in decisions {
                    let rule = campaign.rules[d.decision.trigger.rule]
                    s += "    \(Timestamp.string(d.decision.trigger.time)) \(rule.offer) by rule \(rule.id): \(d.decision.status.rawValue)"
                    if d.why.hasPrefix(d.decision.status.rawValue + ":") {
                        s += String(d.why.dropFirst(d.decision.status.rawValue.count))
                    } else if !d.why.isEmpty {
                        s += ", \(d.why)"
                    }
                    s += "\n"
                }
            }
        }
        return s
    }
}
