extension CaseContext {
    /// The failures of case `c` on its history (empty: it passed).
    func check(_ c: CampaignTestCase, _ fixes: [String: [Fix]]) -> [CampaignTestFailure] {
        var runs: [String: UserRun] = [:]
        func run(_ user: String) -> UserRun {
            if let r = runs[user] { return r }
            let r = UserRun(user: user, fixes: fixes[user] ?? [], replay: replay, zone: zone)
            runs[user] = r
            return r
        }
        var failures: [CampaignTestFailure] = []
        for x in c.expectations {
            let r = run(x.user)
            let failure: CampaignTestFailure?
            if x.offer != nil {
                failure = checkDecision(x, r)
            } else {
                failure = checkVisit(x, r)
            }
            if let failure { failures.append(failure) }
        }
        return failures
    }

    /// Whether instant `t` satisfies the expectation's `time` / `between`.
    func inWindow(_ x: TestExpectation, _ t: Int64) -> Bool {
        if let time = x.time, let s = time.span(readZone), !s.contains(t) { return false }
        if let (a, b) = x.between, let from = a.span(readZone)?.start, let to = b.span(readZone)?.start, !(from <= t && t < to) { return false }
        return true
    }

    /// ` at 2026-11-17 12:12 PST`, ` between A and B`, or nothing.
    func windowText(_ x: TestExpectation) -> String {
        if let t = x.time { return " at \(t.text)" }
        if let (a, b) = x.between { return " between \(a.text) and \(b.text)" }
        return ""
    }

    func campaignMatches(_ x: TestExpectation, _ c: Int) -> Bool {
        x.campaign == nil || campaigns.campaigns[c].id == x.campaign
    }

    func checkDecision(_ x: TestExpectation, _ r: UserRun) -> CampaignTestFailure? {
        guard let offer = x.offer else { return nil }
        let ofOffer = (r.outcome?.decisions ?? []).filter { d in
            let campaign = campaigns.campaigns[d.trigger.campaign], rule = campaign.rules[d.trigger.rule]
            return rule.offer == offer && campaignMatches(x, d.trigger.campaign) && (x.rule == nil || rule.id == x.rule)
        }
        let matching = ofOffer.filter { (x.anyStatus || $0.status == x.status) && inWindow(x, $0.trigger.time) }
        let ok: Bool
        var expected: String
        let status = x.anyStatus ? "any" : (x.status?.rawValue ?? "delivered")
        let scope = (x.campaign.map { "\($0)/" } ?? "") + offer + (x.rule.map { " by rule \($0)" } ?? "")
        if x.kind == .absent {
            ok = matching.isEmpty
            expected = "no \(scope) \(x.anyStatus ? "decision" : status) for \(x.user)\(windowText(x))"
        } else {
            ok = x.count.map { matching.count == $0 } ?? !matching.isEmpty
            expected = "\(scope) \(status) to \(x.user)\(windowText(x))" + (x.count.map { ", \($0) time\($0 == 1 ? "" : "s")" } ?? "")
        }
        if ok { return nil }
        var actual = ofOffer.map { d -> String in
            let rule = campaigns.campaigns[d.trigger.campaign].rules[d.trigger.rule]
            return "\(zone.string(d.trigger.time)) \(campaigns.campaigns[d.trigger.campaign].id)/\(rule.offer) \(d.status.rawValue)"
        }
        if actual.isEmpty { actual = ["no \(offer) decision for \(x.user)" + (r.outcome == nil ? " (no fix of this user in the history)" : "")] }
        expected = (x.kind == .absent ? "absent: " : "decision: ") + expected
        return CampaignTestFailure(line: x.mark.line, column: x.mark.column, expected: [expected], actual: actual,
                                   explain: explainLines(offer: offer, x, r))
    }

    /// The explain lines of the rules naming `offer` and of their decisions.
    func explainLines(offer: String, _ x: TestExpectation, _ r: UserRun) -> [String] {
        guard let e = r.explanation else { return ["\(x.user) has no fix in this case's history"] }
        var lines: [String] = []
        for (c, campaign) in campaigns.campaigns.enumerated() where campaignMatches(x, c) {
            for rule in e.rules[c] where rule.offer == offer && (x.rule == nil || rule.ruleId == x.rule) {
                lines.append("rule \(campaign.id)/\(rule.ruleId) -> \(rule.offer): \(rule.description)")
            }
            for d in e.decisions where d.decision.trigger.campaign == c && campaign.rules[d.decision.trigger.rule].offer == offer {
                lines.append("decision \(zone.string(d.decision.trigger.time)) \(campaign.id)/\(offer) by rule \(campaign.rules[d.decision.trigger.rule].id): "
                             + DecisionReasonText.statusAndReason(d, campaigns: campaigns, time: zone))
            }
        }
        return lines
    }

    func checkVisit(_ x: TestExpectation, _ r: UserRun) -> CampaignTestFailure? {
        guard let regionName = x.region else { return nil }
        var all: [(Campaign, Visit)] = []
        if let o = r.outcome {
            for (c, visits) in o.visits.enumerated() where campaignMatches(x, c) {
                let campaign = campaigns.campaigns[c]
                for v in visits where campaign.regions[Int(v.region)].id == regionName { all.append((campaign, v)) }
            }
        }
        // The same region id in several campaigns is the same place: count each enter once.
        var seen: Set<Int64> = []
        let visits = all.filter { seen.insert($0.1.enter).inserted }
        let matching = visits.filter { inWindow(x, $0.1.enter) && ($0.1.duration >= (x.atLeastMs ?? 0)) }
        let ok: Bool
        var expected: String
        let dwell = x.atLeastMs.map { " of at least \(ExplainText.duration($0))" } ?? ""
        if x.kind == .absent {
            ok = matching.isEmpty
            expected = "absent: no visit\(dwell) of \(x.user) to \(regionName)\(windowText(x))"
        } else {
            ok = x.count.map { matching.count == $0 } ?? !matching.isEmpty
            expected = "visit: \(x.user) visits \(regionName)\(dwell)\(windowText(x))" + (x.count.map { ", \($0) time\($0 == 1 ? "" : "s")" } ?? "")
        }
        if ok { return nil }
        var actual = visits.map { (_, v) -> String in
            "\(regionName) entered \(zone.string(v.enter)), " + (v.exit.map { "left \(zone.clock($0))" } ?? "still inside") + " (\(ExplainText.duration(v.duration)))"
        }
        if actual.isEmpty { actual = ["no visit of \(x.user) to \(regionName)" + (r.outcome == nil ? " (no fix of this user in the history)" : "")] }
        var explain: [String] = []
        if let o = r.outcome {
            explain.append("\(x.user): \(o.fixCount) fixes from \(zone.string(o.t0)) to \(zone.string(o.tEnd))")
            for (c, vs) in o.visits.enumerated() where campaignMatches(x, c) {
                let campaign = campaigns.campaigns[c]
                for v in vs {
                    explain.append("visit \(campaign.id)/\(campaign.regions[Int(v.region)].id): entered \(zone.string(v.enter)), "
                                   + (v.exit.map { "left \(zone.string($0))" } ?? "still inside at the last fix") + " (\(ExplainText.duration(v.duration)))")
                }
            }
        }
        return CampaignTestFailure(line: x.mark.line, column: x.mark.column, expected: [expected], actual: actual, explain: explain)
    }
}
