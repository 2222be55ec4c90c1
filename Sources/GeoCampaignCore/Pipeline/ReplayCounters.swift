/// Counts a replay adds up for the summary (formats.md 3.3).
public struct ReplayCounters: Sendable {
    /// Users with at least one fix considered.
    public var users = 0
    /// Accepted fixes considered.
    public var fixes = 0
    /// Visits (all campaigns).
    public var visits = 0
    /// Enter and exit events.
    public var events = 0
    /// Triggers.
    public var triggers = 0
    /// Decisions by status (in `DecisionStatus.allCases` order).
    private var statusCounts = [Int](repeating: 0, count: DecisionStatus.allCases.count)
    /// Decisions by campaign and rule (`campaign << 32 | rule`): the "campaign/offer" key, made
    /// once per rule, and the counts by status.
    private var byRule: [Int: (key: String, counts: [Int])] = [:]

    /// Decisions by status.
    public var decisions: [DecisionStatus: Int] {
        var out: [DecisionStatus: Int] = [:]
        for (i, status) in DecisionStatus.allCases.enumerated() where statusCounts[i] > 0 { out[status] = statusCounts[i] }
        return out
    }

    /// Decisions by "campaign/offer" and status.
    public var byOffer: [String: [DecisionStatus: Int]] {
        var out: [String: [DecisionStatus: Int]] = [:]
        for (key, counts) in byRule.values {
            for (i, status) in DecisionStatus.allCases.enumerated() where counts[i] > 0 { out[key, default: [:]][status, default: 0] += counts[i] }
        }
        return out
    }

    /// Creates zero counters.
    public init() {}

    /// Adds the counts of one user's outcome.
    public mutating func count(_ o: UserOutcome, campaigns: CampaignSet) {
        users += 1
        fixes += o.fixCount
        for v in o.visits {
            visits += v.count
            events += v.count + v.lazy.filter { $0.exit != nil }.count
        }
        triggers += o.triggers.count
        for d in o.decisions {
            let status = d.status.index
            statusCounts[status] += 1
            let rule = d.trigger.campaign << 32 | d.trigger.rule
            if byRule[rule] == nil {
                let c = campaigns.campaigns[d.trigger.campaign]
                byRule[rule] = (c.id + "/" + c.rules[d.trigger.rule].offer, [Int](repeating: 0, count: statusCounts.count))
            }
            byRule[rule]?.counts[status] += 1
        }
    }

    /// Adds another block's counters.
    public mutating func add(_ o: ReplayCounters) {
        users += o.users
        fixes += o.fixes
        visits += o.visits
        events += o.events
        triggers += o.triggers
        for i in statusCounts.indices { statusCounts[i] += o.statusCounts[i] }
        for (rule, entry) in o.byRule {
            if byRule[rule] == nil {
                byRule[rule] = entry
            } else {
                for i in entry.counts.indices { byRule[rule]?.counts[i] += entry.counts[i] }
            }
        }
    }
}
