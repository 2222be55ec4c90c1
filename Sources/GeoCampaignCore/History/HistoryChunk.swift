/// The fixes read from one stretch of input by one thread: the parser and interner it used, every
/// kept fix in input order with the (chunk-local) user number of each, the rejects it collected,
/// and its counters. `HistoryBuilder` merges chunks in input order.
///
/// Not thread-safe: one chunk per thread.
final class HistoryChunk {
    let parser: JSONLineParser
    let interner: UserInterner
    private let until: Int64?
    /// Every kept fix in input order, and the user number of each (in `interner`).
    let fixes: MappedColumn<Fix>
    let owners: MappedColumn<Int32>
    /// Kept fixes per user number.
    @exclusivity(unchecked) var counts: [Int] = []
    /// Counters of this chunk.
    @exclusivity(unchecked) var stats = HistoryStats()
    /// Rejected lines, when collected (`collectRejects`), with chunk-local line numbers.
    @exclusivity(unchecked) var rejects: [RejectedLine] = []
    /// Lines seen in this chunk.
    @exclusivity(unchecked) var lines = 0
    /// Keep rejected lines in `rejects` (instead of handing them to a callback).
    let collectRejects: Bool

    init(fields: HistoryFields, until: Int64?, interner: UserInterner = UserInterner(),
         collectRejects: Bool, expectedFixes: Int = 0) {
        parser = JSONLineParser(fields: fields)
        self.interner = interner
        self.until = until
        self.collectRejects = collectRejects
        counts = Array(repeating: 0, count: interner.count)
        // Capacity beyond what is used is address space only: its pages are never touched.
        fixes = MappedColumn(capacity: expectedFixes)
        owners = MappedColumn(capacity: expectedFixes)
    }

    /// Parses one line; a reject goes to `onReject` (when not collected).
    @inline(__always)
    func handle(_ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>, _ n: Int,
                _ onReject: ((RejectedLine) throws -> Void)?) throws {
        lines += 1
        stats.linesRead += 1
        switch parser.parse(p, n) {
        case .blank:
            stats.blankLines += 1
        case .accepted:
            let u = interner.intern(parser.userPtr, parser.userLen)
            add(parser.fix, user: u)
        case .rejected:
            stats.rejectCounts[parser.reason.index] += 1
            if collectRejects {
                rejects.append(RejectedLine(path: path, line: lineNo, reason: parser.reason, detail: parser.detail,
                                            text: Array(UnsafeBufferPointer(start: p, count: n))))
            } else if let handler = onReject {
                try handler(RejectedLine(path: path, line: lineNo, reason: parser.reason, detail: parser.detail,
                                         text: Array(UnsafeBufferPointer(start: p, count: n))))
            }
        }
    }

    /// Adds an accepted fix of user `u` (dropped, and counted, when after `until`).
    @inline(__always)
    func add(_ fix: Fix, user u: Int32) {
        stats.fixesAccepted += 1
        if let limit = until, fix.time > limit {
            stats.fixesAfterUntil += 1
            return
        }
        fixes.append(fix)
        owners.append(u)
        let i = Int(u)
        if i >= counts.count { counts.append(contentsOf: repeatElement(0, count: i + 1 - counts.count)) }
        counts[i] += 1
    }
}
