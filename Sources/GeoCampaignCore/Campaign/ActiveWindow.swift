/// A campaign's `active` window `[from, until)` as resolved instants (semantics 3.7).
public struct ActiveWindow: Sendable {
    /// Start in Unix milliseconds (inclusive); nil = unbounded.
    public var fromMs: Int64?
    /// End in Unix milliseconds (exclusive); nil = unbounded.
    public var untilMs: Int64?
    /// IANA zone name used for dates and as the default zone of `during`.
    public var timezone: String

    /// Creates an active window.
    public init(fromMs: Int64?, untilMs: Int64?, timezone: String = "UTC") {
        self.fromMs = fromMs
        self.untilMs = untilMs
        self.timezone = timezone
    }
}
