/// One enter or exit of one user (formats.md 3.2): a visit seen from one of its ends.
public struct CrossingEvent: Sendable, Equatable {
    /// Which end of the visit. Exits order before enters at the same instant.
    public enum Kind: UInt8, Sendable, Comparable {
        /// The visit's exit (closed visits only).
        case exit
        /// The visit's enter.
        case enter

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// Enter or exit.
    public var kind: Kind
    /// The event's instant: the visit's enter or exit time, Unix milliseconds.
    public var time: Int64
    /// Index of the campaign in the list the order was built from.
    public var campaign: Int32
    /// The whole visit (its region index, enter, exit, reason).
    public var visit: Visit

    /// Creates an event.
    public init(kind: Kind, time: Int64, campaign: Int32, visit: Visit) {
        self.kind = kind
        self.time = time
        self.campaign = campaign
        self.visit = visit
    }
}
