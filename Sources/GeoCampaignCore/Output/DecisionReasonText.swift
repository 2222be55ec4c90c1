/// Decision reasons in words for a person (`explain`, `test`), instants in local time: the
/// reason of `Arbiter.explainDecisions` with the earlier decisions that used up a cap or limit
/// named by offer and time.
///
///     capped: "cap of lunch-coupon reached: 1 delivered or held out in the last 1w (cap 1 per 1w):
///              competitor-lunch/lunch-coupon delivered 2026-11-17 12:12:38 PST"
public enum DecisionReasonText {
    /// The reason of `d` in words.
    public static func text(_ d: ExplainedDecision, campaigns: CampaignSet, time: LocalTimeFormat) -> String {
        switch d.reason {
        case .delivered, .heldOut:
            return d.why
        case .capped(_, let by), .limited(_, let by):
            return d.why + (by.isEmpty ? "" : ": " + by.map { prior($0, campaigns, time) }.joined(separator: ", "))
        case .lowerPriority(let by):
            return d.why + " (\(ruleText(by.trigger, campaigns)), \(time.string(by.trigger.time)))"
        }
    }

    /// The status and its reason: `delivered: no cap, ...`, `capped, cap of lunch-coupon reached: ...`.
    public static func statusAndReason(_ d: ExplainedDecision, campaigns: CampaignSet, time: LocalTimeFormat) -> String {
        let status = d.decision.status.rawValue
        let why = text(d, campaigns: campaigns, time: time)
        if why.hasPrefix(status + ":") || why.isEmpty { return why.isEmpty ? status : why }
        return status + ", " + why
    }

    /// `competitor-lunch/lunch-coupon delivered 2026-11-17 12:12:38 PST`.
    static func prior(_ p: PriorDecision, _ campaigns: CampaignSet, _ time: LocalTimeFormat) -> String {
        "\(offerName(p.trigger, campaigns)) \(p.status.rawValue) \(time.string(p.trigger.time))"
    }

    /// `campaign/offer` of a trigger.
    static func offerName(_ t: Trigger, _ campaigns: CampaignSet) -> String {
        guard campaigns.campaigns.indices.contains(t.campaign) else { return "?" }
        let c = campaigns.campaigns[t.campaign]
        return c.id + "/" + (c.rules.indices.contains(t.rule) ? c.rules[t.rule].offer : "?")
    }

    /// `rule three-dealers`.
    static func ruleText(_ t: Trigger, _ campaigns: CampaignSet) -> String {
        guard campaigns.campaigns.indices.contains(t.campaign), campaigns.campaigns[t.campaign].rules.indices.contains(t.rule) else { return "rule ?" }
        return "rule " + campaigns.campaigns[t.campaign].rules[t.rule].id
    }
}
