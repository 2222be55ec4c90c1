/// What a run of `ReplayDriver` counted, for the summary a command prints.
public struct RunSummary {
    /// Creates a summary.
    public init(stats: HistoryStats, counters: ReplayCounters, clock: StageClock, decisions: Bool) {
        self.stats = stats
        self.counters = counters
        self.clock = clock
        self.decisions = decisions
    }

    /// Lines read, fixes accepted, rejects by reason.
    public var stats: HistoryStats
    /// Users, visits, events, triggers and decisions.
    public var counters: ReplayCounters
    /// The wall time of each stage.
    public var clock: StageClock
    /// Whether decisions were computed (false for `events`).
    public var decisions: Bool

    /// Set when the run printed a repeated batch's stored output instead of the summary's counts.
    public var note: String?

    /// The summary of formats.md 3.3 (or the note).
    public var text: String { note ?? Summary.text(stats: stats, counters: counters, clock: clock, decisions: decisions) }
}
