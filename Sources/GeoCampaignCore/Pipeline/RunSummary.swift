/// What a run of `ReplayDriver` counted, for the summary a command prints.
public struct RunSummary {
    /// Lines read, fixes accepted, rejects by reason.
    public var stats: HistoryStats
    /// Users, visits, events, triggers and decisions.
    public var counters: ReplayCounters
    /// The wall time of each stage.
    public var clock: StageClock
    /// Whether decisions were computed (false for `events`).
    public var decisions: Bool

    /// The summary of formats.md 3.3.
    public var text: String { Summary.text(stats: stats, counters: counters, clock: clock, decisions: decisions) }
}
