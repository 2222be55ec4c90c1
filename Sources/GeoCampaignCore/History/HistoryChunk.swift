/// The fixes read from one stretch of input by one thread: the parser and interner it used, every
/// kept fix in input order with the (chunk-local) user numbers of its runs, the rejects it
/// collected, and its counters. `HistoryBuilder` merges chunks in input order.
///
/// Not thread-safe: one chunk per thread.
final class HistoryChunk {
    let parser: JSONLineParser
    /// The parser of CSV rows (see `HistoryChunk+CSV.swift`).
    let csv: CSVRowParser
    let interner: UserInterner
    private let until: Int64?
    /// Every kept fix in input order, and whose they are (`interner`'s user numbers): runs of
    /// consecutive fixes of one user, in the same order.
    let fixes: MappedColumn<Fix>
    let runs: MappedColumn<Run>
    /// The user of the last run (-1 before the first).
    @exclusivity(unchecked) private var lastUser: Int32 = -1
    /// Kept fixes per user number: `countLength` entries in raw memory (no uniqueness or bounds
    /// checks per fix).
    @exclusivity(unchecked) private var countBuffer: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var countCapacity: Int
    @exclusivity(unchecked) private var countLength: Int
    /// Kept fixes per user number.
    var counts: [Int] { Array(UnsafeBufferPointer(start: countBuffer, count: countLength)) }
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
        csv = CSVRowParser(fields: fields)
        self.interner = interner
        self.until = until
        self.collectRejects = collectRejects
        countLength = interner.count
        countCapacity = max(256, countLength)
        countBuffer = UnsafeMutablePointer<Int>.allocate(capacity: countCapacity)
        countBuffer.initialize(repeating: 0, count: countLength)
        // Capacity beyond what is used is address space only: its pages are never touched.
        fixes = MappedColumn(capacity: expectedFixes)
        // As many runs as fixes at most (input not grouped by user); grouped input writes few.
        runs = MappedColumn(capacity: expectedFixes)
    }

    deinit { countBuffer.deallocate() }

    /// Parses one line; a reject goes to `onReject` (when not collected).
    @inline(__always)
    func handle(_ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>, _ n: Int,
                _ onReject: ((RejectedLine) throws -> Void)?) throws {
        lines += 1
        stats.linesRead += 1
        try take(parser, path, lineNo, p, n, onReject)
    }

    /// Parses one line (row) with `parser`: a fix is added, a reject counted and collected or
    /// handed on.
    @inline(__always)
    func take<Parser: HistoryLineParser>(_ parser: Parser, _ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>,
                                         _ n: Int, _ onReject: ((RejectedLine) throws -> Void)?) throws {
        switch parser.parse(p, n) {
        case .blank:
            stats.blankLines += 1
        case .accepted:
            add(parser.fix, user: interner.intern(parser.userPtr, parser.userLen))
        case .rejected:
            try rejected(RejectedLine(path: path, line: lineNo, reason: parser.reason, detail: parser.detail,
                                      text: Array(UnsafeBufferPointer(start: p, count: n))), onReject)
        }
    }

    /// Counts a rejected line and collects it or hands it on.
    func rejected(_ r: RejectedLine, _ onReject: ((RejectedLine) throws -> Void)?) throws {
        stats.rejectCounts[r.reason.index] += 1
        if collectRejects {
            rejects.append(r)
        } else if let handler = onReject {
            try handler(r)
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
        if u == lastUser && runs.base[runs.count &- 1].count < Int32.max {
            runs.base[runs.count &- 1].count &+= 1
        } else {
            runs.append(Run(user: u, count: 1))
            lastUser = u
        }
        let i = Int(u)
        if i >= countLength { growCounts(to: i + 1) }
        countBuffer[i] &+= 1
    }

    /// Makes room for user numbers below `length`, the new ones at 0.
    private func growCounts(to length: Int) {
        if length > countCapacity {
            let capacity = max(length, countCapacity * 2)
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            bigger.initialize(from: countBuffer, count: countLength)
            countBuffer.deallocate()
            countBuffer = bigger
            countCapacity = capacity
        }
        (countBuffer + countLength).initialize(repeating: 0, count: length - countLength)
        countLength = length
    }
}
