import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a history whose lines are grouped by user (`--sorted`: each user's lines contiguous):
/// hands each user's fixes to `onUser` as soon as the user's group ends, so memory stays bounded
/// by the largest user rather than the input. The files are read as one stream, in order: a group
/// may go on from one file into the next.
///
/// Users arrive in input order; each user's fixes are sorted by time, stably, and fixes after
/// `until` are dropped (a user left with none is not delivered), exactly as `HistoryBuilder`
/// would give them. A user whose lines reappear after another user's is a `HistorySortError`.
///
/// ```swift
/// let reader = SortedHistoryReader(fields: fields, until: until)
/// reader.onReject = { r in try rejectsWriter.write(r) }
/// reader.onUser = { id, fixes in try process(id, fixes) }
/// for path in paths { try reader.read(path: path) }
/// try reader.finish()
/// ```
public final class SortedHistoryReader {
    /// Called with each user's id and fixes (sorted by time) once the user's lines have ended.
    /// Throwing from it stops reading; the error propagates out of `read` or `finish`.
    public var onUser: ((String, [Fix]) throws -> Void)?

    /// Called for every rejected line, in input order; throwing from it stops reading.
    public var onReject: ((RejectedLine) throws -> Void)?

    /// Called as bytes are read: at most once per 4 MiB, and at the end of each file.
    public var progress: ((HistoryProgress) -> Void)?

    /// Counters so far.
    @exclusivity(unchecked) public private(set) var stats = HistoryStats()

    /// Users delivered so far.
    public private(set) var usersDelivered = 0

    private let fields: HistoryFields
    private let until: Int64?
    /// Every user seen so far (the current one included), to detect a group that reappears.
    private let seen = UserInterner()
    private let meter = ProgressMeter()
    /// The user whose lines are being read, or -1 before the first accepted line.
    @exclusivity(unchecked) private var current: Int32 = -1
    @exclusivity(unchecked) private var fixes: [Fix] = []
    /// The parser of CSV rows, made when first needed.
    private lazy var csvParser = CSVRowParser(fields: fields)

    /// Creates a reader.
    /// - Parameters:
    ///   - fields: the keys the canonical fields are read from (`--field`).
    ///   - until: when set, accepted fixes later than this instant (Unix ms) are dropped (`--until`).
    public init(fields: HistoryFields = HistoryFields(), until: Int64? = nil) {
        self.fields = fields
        self.until = until
    }

    /// Reads one history file in the format `fields.format` names, else by its extension: GPX for
    /// `.gpx` (one user's group), CSV for `.csv`, else JSON Lines (`-` is stdin), delivering every
    /// user whose group ends within it.
    /// - Parameters:
    ///   - gpxUser: the user of a GPX file (`--user`); default: the file name without extension.
    ///   - gpxStart: when a GPX file has no times, the time of its first point (`--start`), Unix ms.
    /// - Throws: `HistorySortError` when a user's lines reappear after another user's;
    ///   `HistoryError` when the file cannot be opened or read, or a GPX file is malformed;
    ///   whatever `onUser` or `onReject` throws.
    /// - Complexity: O(n) in the lines read, plus the sort of each user whose fixes are out of order.
    public func read(path: String, gpxUser: String? = nil, gpxStart: Int64 = GPXReader.defaultStart) throws {
        switch HistoryFormat.of(path: path, forced: fields.format) {
        case .gpx: try readGPX(path: path, user: gpxUser ?? HistoryBuilder.defaultUser(forGPXPath: path), start: gpxStart)
        case .csv: try readCSV(path: path)
        case .jsonLines: try readJSONLines(path: path)
        }
    }

    /// Delivers the last user. Call once after the last `read`.
    /// - Throws: whatever `onUser` throws.
    public func finish() throws {
        try flush()
        current = -1
    }

    /// Reads a JSON Lines file (`-` is stdin) in 4 MiB blocks.
    /// - Throws: as `read(path:)`.
    public func readJSONLines(path: String) throws {
        let input = try meter.open(path: path, callback: progress)
        defer { withExtendedLifetime(input) {} }
        stats.files += 1
        let parser = JSONLineParser(fields: fields)
        let reader = try BlockLineReader(fd: input.fd, path: path)
        meter.watch(reader)
        reader.onTooLong = { lineNo, p, kept, length in
            self.stats.linesRead += 1
            try self.tooLong(path, lineNo, p, kept, length, what: "line")
        }
        try reader.forEachLine { lineNo, p, n in
            stats.linesRead += 1
            try take(parser, path, lineNo, p, n)
        }
        meter.end()
    }

    /// Reads a CSV file (`-` is stdin; docs/history-format.md) in 4 MiB blocks, its first
    /// non-blank row the header.
    /// - Throws: as `read(path:)`.
    public func readCSV(path: String) throws {
        let input = try meter.open(path: path, callback: progress)
        defer { withExtendedLifetime(input) {} }
        stats.files += 1
        let parser = csvParser
        parser.beginFile()
        let reader = try BlockLineReader(fd: input.fd, path: path, quoted: true)
        defer { stats.linesRead += reader.lines }
        meter.watch(reader)
        reader.onTooLong = { lineNo, p, kept, length in
            if parser.awaitingHeader { parser.unusableHeader("the header row (line \(lineNo)) is over 1 MiB") }
            try self.tooLong(path, lineNo, p, kept, length, what: "row")
        }
        try reader.forEachLine { lineNo, p, n in
            if parser.awaitingHeader {
                if CSVRowParser.isBlankRow(p, n) {
                    stats.blankLines += 1
                } else if let problem = parser.setHeader(p, n) {
                    try rejected(RejectedLine(path: path, line: lineNo, reason: parser.headerProblemReason, detail: problem,
                                              text: Array(UnsafeBufferPointer(start: p, count: n))))
                }
                return
            }
            try take(parser, path, lineNo, p, n)
        }
        meter.end()
    }

    /// Parses one line (row) of `path` with `parser`: a fix is added, a reject counted and handed on.
    @inline(__always)
    private func take<Parser: HistoryLineParser>(_ parser: Parser, _ path: String, _ lineNo: Int,
                                                 _ p: UnsafePointer<UInt8>, _ n: Int) throws {
        switch parser.parse(p, n) {
        case .blank:
            stats.blankLines += 1
        case .accepted:
            try add(parser.fix, user: seen.intern(parser.userPtr, parser.userLen), path: path, line: lineNo)
        case .rejected:
            try rejected(RejectedLine(path: path, line: lineNo, reason: parser.reason, detail: parser.detail,
                                      text: Array(UnsafeBufferPointer(start: p, count: n))))
        }
    }

    /// Counts a rejected line and hands it on.
    private func rejected(_ r: RejectedLine) throws {
        stats.rejectCounts[r.reason.index] += 1
        if let handler = onReject { try handler(r) }
    }

    /// A line or row over the limit: rejected `too_long` with its first bytes as text.
    private func tooLong(_ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>, _ kept: Int, _ length: Int,
                         what: String) throws {
        try rejected(.tooLong(path: path, line: lineNo, what: what, prefix: p, kept: kept, length: length))
    }

    /// Reads a GPX file as the fixes of `user`.
    /// - Throws: as `read(path:)`.
    public func readGPX(path: String, user: String, start: Int64 = GPXReader.defaultStart) throws {
        let result = try GPXReader.read(path: path, start: start)
        stats.files += 1
        let u = seen.intern(user)
        for item in result.items {
            stats.linesRead += 1
            switch item {
            case .fix(let fix):
                try add(fix, user: u, path: path, line: 0)  // a GPX file is one group: no line to name
            case .rejected(let r):
                try rejected(r)
            }
        }
    }

    @inline(__always)
    private func add(_ fix: Fix, user u: Int32, path: String, line: Int) throws {
        if u != current {
            // A user met for the first time has the highest number; any other was seen before.
            if u != Int32(seen.count - 1) {
                throw HistorySortError(path: path, line: line, user: seen.string(Int(u)))
            }
            try flush()
            current = u
        }
        stats.fixesAccepted += 1
        if let limit = until, fix.time > limit {
            stats.fixesAfterUntil += 1
            return
        }
        fixes.append(fix)
    }

    /// Delivers the current user's fixes, if any.
    private func flush() throws {
        guard current >= 0, !fixes.isEmpty else { return }
        // An exact-size copy; the buffer keeps its capacity for the next user.
        let n = fixes.count
        var group = fixes.withUnsafeBufferPointer { src in
            [Fix](unsafeUninitializedCapacity: n) { out, initialized in
                if let to = out.baseAddress, let from = src.baseAddress { to.initialize(from: from, count: n) }
                initialized = n
            }
        }
        fixes.removeAll(keepingCapacity: true)
        HistoryBuilder.stableSortByTime(&group)
        usersDelivered += 1
        try onUser?(seen.string(Int(current)), group)
    }
}
