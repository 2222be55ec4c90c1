/// How long a past visit or decision can still matter, so that the state keeps only what a
/// future decision can see (state.md 1, "prune what no future decision can see").
public enum StateHorizon {
    /// How long after its exit a closed visit can still change a condition of `campaign`: the
    /// largest `within` plus the largest `min_dwell` of its `visited` and `sequence`
    /// conditions (an occurrence `q <= exit` covers `[q, q + within)`; a sequence's match ends
    /// by `q1 + within`, `q1 <= exit + min_dwell`); `inside` and `dwelled` end at the exit.
    /// nil when a `visited` has no `within` (it counts for ever).
    /// - Complexity: O(size of the rules).
    public static func visitReach(_ campaign: Campaign) -> Int64? {
        var within: Int64 = 0, dwell: Int64 = 0, unbounded = false
        func walk(_ c: Condition) {
            switch c {
            case .inside, .during: break
            case .dwelled(let d): dwell = max(dwell, d.overMs)
            case .visited(let v):
                if let w = v.withinMs { within = max(within, w) } else { unbounded = true }
                dwell = max(dwell, v.minDwellMs)
            case .sequence(let s):
                within = max(within, s.withinMs)
                for step in s.steps { dwell = max(dwell, step.minDwellMs) }
            case .all(let parts), .any(let parts): parts.forEach(walk)
            case .not(let inner): walk(inner)
            }
        }
        campaign.rules.forEach { walk($0.condition) }
        if unbounded { return nil }
        let (sum, o1) = within.addingReportingOverflow(dwell)
        return o1 ? nil : sum
    }

    /// How long a delivered or held-out decision can still count: the longest cap period and
    /// `limits.per_user` period; nil when a cap or the limit has no period (lifetime).
    public static func decisionReach(_ set: CampaignSet) -> Int64? {
        var longest: Int64 = 0
        for cap in set.campaigns.flatMap({ $0.offers.compactMap(\.cap) }) + [set.settings.perUserLimit].compactMap({ $0 }) {
            guard let per = cap.perMs else { return nil }
            longest = max(longest, per)
        }
        return longest
    }

    /// Whether something that ends at `end` and counts for `reach` more can still matter at
    /// or after `horizon`.
    @inlinable public static func matters(end: Int64, reach: Int64?, at horizon: Int64) -> Bool {
        guard let reach else { return true }
        let (sum, overflow) = end.addingReportingOverflow(reach)
        return overflow || sum >= horizon
    }
}
