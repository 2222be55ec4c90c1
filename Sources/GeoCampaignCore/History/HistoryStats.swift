/// Counters of a history read, for the summary (formats.md 3.3).
public struct HistoryStats: Sendable, Equatable {
    /// Files read.
    public var files = 0
    /// Lines read, blank ones included (for GPX: points).
    public var linesRead = 0
    /// Blank lines (only spaces and tabs).
    public var blankLines = 0
    /// Lines or points accepted as fixes (including those later dropped by `until`).
    public var fixesAccepted = 0
    /// Accepted fixes dropped because they are after `until`.
    public var fixesAfterUntil = 0
    /// Rejected lines per reason, indexed by `RejectReason.index`.
    public var rejectCounts: [Int] = Array(repeating: 0, count: RejectReason.allCases.count)

    /// Creates empty counters.
    public init() {}

    /// Adds the counters of `other` to these.
    public mutating func add(_ other: HistoryStats) {
        files += other.files
        linesRead += other.linesRead
        blankLines += other.blankLines
        fixesAccepted += other.fixesAccepted
        fixesAfterUntil += other.fixesAfterUntil
        for i in rejectCounts.indices { rejectCounts[i] += other.rejectCounts[i] }
    }

    /// Rejected lines with `reason`.
    public func rejected(_ reason: RejectReason) -> Int { rejectCounts[reason.index] }

    /// All rejected lines.
    public var totalRejected: Int { rejectCounts.reduce(0, +) }

    /// The non-zero reject counts in priority order.
    public var rejectsByReason: [(reason: RejectReason, count: Int)] {
        RejectReason.allCases.compactMap { r in rejectCounts[r.index] > 0 ? (r, rejectCounts[r.index]) : nil }
    }
}
