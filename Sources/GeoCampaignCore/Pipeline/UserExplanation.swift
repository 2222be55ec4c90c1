/// Everything `explain` tells about one user: the outcome, per campaign the fixes used and skipped
/// and each rule's explanation, and every decision with why it got its status.
public struct UserExplanation: Sendable {
    /// Fix counts of one campaign.
    public struct FixCounts: Sendable, Equatable {
        /// Fixes within the campaign's `max_accuracy` (or without accuracy).
        public var used: Int
        /// Fixes skipped for poor accuracy.
        public var skippedForAccuracy: Int
    }

    /// The replay's outcome.
    public var outcome: UserOutcome
    /// Fixes after `--until`, not considered at all.
    public var skippedAfterUntil: Int
    /// Per campaign: fix counts.
    public var fixes: [FixCounts]
    /// Per campaign: one explanation per rule.
    public var rules: [[RuleExplanation]]
    /// Decisions in output order, with reasons.
    public var decisions: [ExplainedDecision]
}

extension Replay {
    /// Explains one user: visits, where each rule held or came closest, and every decision and why.
    /// - Returns: nil when the user has no fix (after `--until`).
    /// - Complexity: as `outcome(userId:fixes:)`, plus the explanation of every rule.
    ///   - time: writes the rules' instants in local time, per campaign (RFC 3339 UTC when nil or
    ///     shorter than the campaigns).
    public func explain(userId: String, fixes: [Fix], time: [LocalTimeFormat]? = nil) -> UserExplanation? {
        guard let o = outcome(userId: userId, fixes: fixes) else { return nil }
        let considered = Array(fixes.prefix(o.fixCount))
        var counts: [UserExplanation.FixCounts] = []
        var rules: [[RuleExplanation]] = []
        for (c, campaign) in campaigns.campaigns.enumerated() {
            let maxAccuracy = campaign.tracking.over(campaigns.settings.tracking).over(.defaults).maxAccuracyM ?? 100
            let used = considered.lazy.filter { $0.isUsed(maxAccuracy: maxAccuracy) }.count
            counts.append(.init(used: used, skippedForAccuracy: considered.count - used))
            let zone = time.flatMap { $0.indices.contains(c) ? $0[c] : nil }
            rules.append(evaluators[c].explain(visits: o.visits[c], t0: o.t0, tEnd: o.tEnd, time: zone))
        }
        return UserExplanation(outcome: o, skippedAfterUntil: fixes.count - o.fixCount, fixes: counts, rules: rules,
                               decisions: arbiter.explainDecisions(userId: userId, triggers: o.triggers))
    }
}
