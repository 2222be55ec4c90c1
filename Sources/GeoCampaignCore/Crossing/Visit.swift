/// One stay of one user inside one region of one campaign (semantics 2.3).
public struct Visit: Sendable, Equatable {
    /// Index of the region in `Campaign.regions`.
    public var region: Int32
    /// Enter time, Unix milliseconds.
    public var enter: Int64
    /// Exit time; nil while the visit is open at the end.
    public var exit: Int64?
    /// For an open visit the last time it was seen inside (semantics 2.3); equal to `exit` when closed.
    public var lastSeen: Int64
    /// Why the visit ended; nil while open.
    public var reason: ExitReason?

    /// Creates a visit.
    public init(region: Int32, enter: Int64, exit: Int64?, lastSeen: Int64, reason: ExitReason?) {
        self.region = region
        self.enter = enter
        self.exit = exit
        self.lastSeen = lastSeen
        self.reason = reason
    }

    /// `exit - enter` for a closed visit, `lastSeen - enter` for an open one.
    @inlinable public var duration: Int64 { (exit ?? lastSeen) - enter }
}

/// Why a visit ended.
public enum ExitReason: String, Sendable {
    /// An OUT fix confirmed the exit.
    case left
    /// The track broke (a gap longer than max_gap) while inside.
    case gap
}
