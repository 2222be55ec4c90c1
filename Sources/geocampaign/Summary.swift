import Foundation
import GeoCampaignCore

/// The summary of formats.md 3.3, printed on stderr.
enum Summary {
    static func print(stats: HistoryStats, counters: ReplayCounters, clock: StageClock, decisions: Bool) {
        var s = "lines read: \(stats.linesRead), fixes accepted: \(stats.accepted), fixes used: \(counters.fixes)"
        let rejected = stats.rejected.values.reduce(0, +)
        s += ", rejected: \(rejected)"
        if rejected > 0 {
            let parts = RejectReason.allCases.compactMap { r in stats.rejected[r].map { "\(r.rawValue) \($0)" } }
            s += " (" + parts.joined(separator: ", ") + ")"
        }
        s += "\nusers: \(counters.users), visits: \(counters.visits), events: \(counters.events)"
        if decisions {
            s += ", triggers: \(counters.triggers)\ndecisions: "
            s += DecisionStatus.allCases.reversed().map { "\($0.rawValue) \(counters.decisions[$0] ?? 0)" }.joined(separator: ", ")
            for key in counters.byOffer.keys.sorted() {
                let c = counters.byOffer[key] ?? [:]
                s += "\n  \(key): " + DecisionStatus.allCases.reversed().compactMap { st in c[st].map { "\(st.rawValue) \($0)" } }.joined(separator: ", ")
            }
        }
        s += "\nwall time: " + String(format: "%.3f s", clock.total) + " (" + clock.line + ")\n"
        Console.err(s)
    }
}
