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
    /// Decisions by status.
    public var decisions: [DecisionStatus: Int] = [:]
    /// Decisions by "campaign/offer" and status.
    public var byOffer: [String: [DecisionStatus: Int]] = [:]

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
            decisions[d.status, default: 0] += 1
            let c = campaigns.campaigns[d.trigger.campaign]
            let key = c.id + "/" + c.rules[d.trigger.rule].offer
            byOffer[key, default: [:]][d.status, default: 0] += 1
        }
    }

    /// Adds another block's counters.
    public mutating func add(_ o: ReplayCounters) {
        users += o.users
        fixes += o.fixes
        visits += o.visits
        events += o.events
        triggers += o.triggers
        decisions.merge(o.decisions, uniquingKeysWith: +)
        byOffer.merge(o.byOffer) { $0.merging($1, uniquingKeysWith: +) }
    }
}
