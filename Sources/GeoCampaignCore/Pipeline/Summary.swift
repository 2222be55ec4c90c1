import Foundation

/// The summary of formats.md 3.3 that `evaluate`, `events` and `simulate` print on stderr.
public enum Summary {
    /// The summary's text, ending in a newline.
    public static func text(stats: HistoryStats, counters: ReplayCounters, clock: StageClock, decisions: Bool) -> String {
        var s = "lines read: \(stats.linesRead), fixes accepted: \(stats.fixesAccepted), fixes used: \(counters.fixes)"
        if stats.fixesAfterUntil > 0 { s += ", fixes after --until: \(stats.fixesAfterUntil)" }
        let rejected = stats.totalRejected
        s += ", rejected: \(rejected)"
        if rejected > 0 {
            let parts = stats.rejectsByReason.filter { $0.count > 0 }.map { "\($0.reason.rawValue) \($0.count)" }
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
        return s
    }
}
