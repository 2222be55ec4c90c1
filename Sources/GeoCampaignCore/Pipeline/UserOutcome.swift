/// Everything the replay computed for one user.
public struct UserOutcome: Sendable {
    /// The user id.
    public var userId: String
    /// Accepted fixes considered (after `--until`).
    public var fixCount: Int
    /// First accepted fix (semantics 3).
    public var t0: Int64
    /// Last accepted fix (semantics 3).
    public var tEnd: Int64
    /// Visits per campaign (index = campaign index), each sorted by enter then region.
    public var visits: [[Visit]]
    /// Triggers of all campaigns, in arbitration order.
    public var triggers: [Trigger]
    /// Decisions in output order (formats.md 3.1).
    public var decisions: [Decision]
    /// The decisions of earlier runs that count for caps and the per-user limit (a stateful
    /// run; empty in a one-shot run): what `decisions` were decided after, and what their
    /// reasons name besides this run's decisions.
    public var prior: [Arbiter.Seed] = []
    /// The events to print: those with time in `eventsFrom ..< eventsBefore` (a stateful run
    /// prints each event once, state.md 1.1; a one-shot run prints all).
    public var eventsFrom: Int64 = .min
    public var eventsBefore: Int64 = .max
}
