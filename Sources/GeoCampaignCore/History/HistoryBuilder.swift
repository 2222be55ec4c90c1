#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one or more history files in sequence (JSON Lines, or GPX by the `.gpx` extension) and
/// builds the `History`: user ids interned once, fixes appended per user, and at the end each
/// user's fixes sorted by time, stably (file order, then line order, for equal times).
///
/// ```swift
/// let builder = HistoryBuilder(fields: fields, until: until)
/// builder.onReject = { r in try rejectsWriter.write(r) }
/// for path in paths { try builder.read(path: path) }
/// let history = builder.finish()
/// ```
public final class HistoryBuilder {
    /// Called for every rejected line, in input order. Throwing from it (for example in
    /// `--strict` mode) stops reading; the error propagates out of `read`.
    public var onReject: ((RejectedLine) throws -> Void)?

    /// Counters so far.
    @exclusivity(unchecked) public private(set) var stats = HistoryStats()

    private let parser: JSONLineParser
    private let until: Int64?
    private let interner = UserInterner()
    /// Every kept fix in input order, and the user number of each.
    @exclusivity(unchecked) private var flat: [Fix] = []
    @exclusivity(unchecked) private var owner: [Int32] = []

    /// Creates a builder.
    /// - Parameters:
    ///   - fields: the keys the canonical fields are read from (`--field`).
    ///   - until: when set, accepted fixes later than this instant (Unix ms) are dropped (`--until`).
    public init(fields: HistoryFields = HistoryFields(), until: Int64? = nil) {
        parser = JSONLineParser(fields: fields)
        self.until = until
    }

    /// The default GPX user for `path`: the file name without directory and extension.
    public static func defaultUser(forGPXPath path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { return String(name[..<dot]) }
        return name
    }

    /// Whether `path` is read as GPX (extension `.gpx`, any case).
    public static func isGPX(path: String) -> Bool { path.lowercased().hasSuffix(".gpx") }

    /// Reads one history file: GPX when the extension is `.gpx`, else JSON Lines (`-` is stdin).
    /// - Parameters:
    ///   - gpxUser: the user of a GPX file (`--user`); default: the file name without extension.
    ///   - gpxStart: when a GPX file has no times, the time of its first point (`--start`), Unix ms.
    /// - Throws: `HistoryError` when the file cannot be opened or read, or a GPX file is malformed;
    ///   whatever `onReject` throws.
    public func read(path: String, gpxUser: String? = nil,
                     gpxStart: Int64 = GPXReader.defaultStart) throws {
        if path != "-" && HistoryBuilder.isGPX(path: path) {
            try readGPX(path: path, user: gpxUser ?? HistoryBuilder.defaultUser(forGPXPath: path), start: gpxStart)
        } else {
            try readJSONLines(path: path)
        }
    }

    /// Reads a JSON Lines file (`-` is stdin) in 4 MiB blocks.
    /// - Throws: `HistoryError.cannotOpen` naming the path, `.readFailed`, or what `onReject` throws.
    public func readJSONLines(path: String) throws {
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            fd = open(path, O_RDONLY)
            if fd < 0 { throw HistoryError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { if fd != 0 { close(fd) } }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            throw HistoryError.cannotOpen(path: path, reason: "is a directory")
        }
        stats.files += 1
        let reader = BlockLineReader(fd: fd, path: path)
        try reader.forEachLine { lineNo, p, n in try self.handleLine(path, lineNo, p, n) }
    }

    /// Reads JSON Lines from memory, exactly as from a file named `name`.
    public func readJSONLines(bytes: [UInt8], name: String) throws {
        stats.files += 1
        var lines: [(Int, Int)] = []
        var s = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            lines.append((s, i)); s = i + 1
        }
        if s < bytes.count { lines.append((s, bytes.count)) }
        // A trailing NUL keeps the buffer non-empty; it is never part of a line.
        let padded = bytes + [0]
        try padded.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            for (k, (s0, e0)) in lines.enumerated() {
                var ls = s0, le = e0
                if le > ls && base[le - 1] == 0x0D { le -= 1 }
                if k == 0 && le - ls >= 3 && base[ls] == 0xEF && base[ls + 1] == 0xBB && base[ls + 2] == 0xBF { ls += 3 }
                try handleLine(name, k + 1, base + ls, le - ls)
            }
        }
    }

    @inline(__always)
    private func handleLine(_ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>, _ n: Int) throws {
        stats.linesRead += 1
        switch parser.parse(p, n) {
        case .blank:
            stats.blankLines += 1
        case .accepted:
            add(parser.fix, user: interner.intern(parser.userPtr, parser.userLen))
        case .rejected:
            stats.rejectCounts[parser.reason.index] += 1
            if let handler = onReject {
                try handler(RejectedLine(path: path, line: lineNo, reason: parser.reason, detail: parser.detail,
                                         text: Array(UnsafeBufferPointer(start: p, count: n))))
            }
        }
    }

    @inline(__always)
    private func add(_ fix: Fix, user u: Int32) {
        stats.fixesAccepted += 1
        if let limit = until, fix.time > limit {
            stats.fixesAfterUntil += 1
            return
        }
        flat.append(fix)
        owner.append(u)
    }

    /// Reads a GPX file as the fixes of `user`.
    /// - Throws: `HistoryError.cannotOpen`, `.malformedGPX`, or what `onReject` throws.
    public func readGPX(path: String, user: String, start: Int64 = GPXReader.defaultStart) throws {
        let result = try GPXReader.read(path: path, start: start)
        stats.files += 1
        let idBytes = Array(user.utf8) + [0]
        let u = idBytes.withUnsafeBufferPointer { b -> Int32 in
            guard let base = b.baseAddress else { return 0 }
            return interner.intern(base, b.count - 1)
        }
        for item in result.items {
            stats.linesRead += 1
            switch item {
            case .fix(let fix):
                add(fix, user: u)
            case .rejected(let r):
                stats.rejectCounts[r.reason.index] += 1
                if let handler = onReject { try handler(r) }
            }
        }
    }

    /// Groups the fixes by user, sorts each user's fixes by time (stable) and returns the
    /// history. Users without any kept fix are left out. The builder is spent.
    /// - Complexity: O(n) to group, plus O(k log k) per user whose k fixes were out of order.
    public func finish() -> History {
        let users = interner.count
        // Counting sort by user (stable), then one array per user.
        var offsets = [Int](repeating: 0, count: users + 1)
        for u in owner { offsets[Int(u) + 1] += 1 }
        for u in 0..<users { offsets[u + 1] += offsets[u] }
        var next = offsets
        let byUser = [Fix](unsafeUninitializedCapacity: flat.count) { out, initialized in
            initialized = 0
            guard let base = out.baseAddress else { return }
            flat.withUnsafeBufferPointer { src in
                owner.withUnsafeBufferPointer { own in
                    for k in 0..<src.count {
                        let u = Int(own[k])
                        (base + next[u]).initialize(to: src[k])
                        next[u] += 1
                    }
                }
            }
            initialized = flat.count
        }
        flat = []
        owner = []
        var ids: [String] = []
        var groups: [[Fix]] = []
        for u in 0..<users where offsets[u + 1] > offsets[u] {
            ids.append(interner.string(u))
            var g = Array(byUser[offsets[u]..<offsets[u + 1]])
            HistoryBuilder.stableSortByTime(&g)
            groups.append(g)
        }
        return History(userIds: ids, fixes: groups, stats: stats)
    }

    /// Parses an RFC 3339 instant with offset (for `--until` and `--start`); see `RFC3339.parse`.
    public static func parseRFC3339(_ s: String) -> Int64? { RFC3339.parse(s) }

    /// Sorts `a` by time, keeping the input order of equal times.
    static func stableSortByTime(_ a: inout [Fix]) {
        var sorted = true
        var i = 1
        while i < a.count {
            if a[i].time < a[i - 1].time { sorted = false; break }
            i += 1
        }
        if sorted { return }
        // The standard library's sort is documented as stable.
        a.sort { $0.time < $1.time }
    }
}
