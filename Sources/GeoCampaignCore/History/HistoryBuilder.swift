import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one or more history files in sequence (JSON Lines, CSV by the `.csv` extension, GPX by
/// the `.gpx` extension, or all in the format `fields.format` names) and
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
    /// `--strict` mode) stops reading; the error propagates out of `read`. When a file is read
    /// on several threads, its rejects are delivered after the whole file is parsed, still in
    /// file order with their line numbers.
    public var onReject: ((RejectedLine) throws -> Void)?

    /// Called as bytes are read: at most once per 4 MiB, and at the end of each file; never
    /// from two threads at once, but possibly from a reading thread.
    public var progress: ((HistoryProgress) -> Void)?

    /// Threads that parse a regular JSON Lines file (>= 1; default: all cores). The history is
    /// the same whatever the count.
    public var threads: Int = HistoryBuilder.defaultThreads

    /// Files smaller than this are read on one thread.
    var parallelMinBytes = 1 << 20
    /// Histories with fewer fixes are grouped on one thread.
    var parallelMinFixes = 1 << 16

    /// Counters so far.
    @exclusivity(unchecked) public private(set) var stats = HistoryStats()

    /// What one file (or one part of a file) contributed: its kept fixes in input order, whose
    /// they are (runs of one user's fixes), the count per user number, and (when its users were
    /// interned apart) the builder's user number of each of its own.
    struct Segment {
        var fixes: MappedColumn<Fix>
        var runs: MappedColumn<HistoryChunk.Run>
        var counts: [Int]
        var map: [Int32]?
    }

    private let fields: HistoryFields
    private let until: Int64?
    private let interner = UserInterner()
    private let meter = ProgressMeter()
    @exclusivity(unchecked) private var segments: [Segment] = []
    /// Where files read on one thread go, until a file read on several threads comes.
    private var tail: HistoryChunk?

    /// The number of cores.
    public static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Creates a builder.
    /// - Parameters:
    ///   - fields: the keys the canonical fields are read from (`--field`).
    ///   - until: when set, accepted fixes later than this instant (Unix ms) are dropped (`--until`).
    public init(fields: HistoryFields = HistoryFields(), until: Int64? = nil) {
        self.fields = fields
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

    /// Reads one history file in the format `fields.format` names, else by its extension: GPX
    /// for `.gpx`, CSV for `.csv`, else JSON Lines (`-` is stdin).
    /// - Parameters:
    ///   - gpxUser: the user of a GPX file (`--user`); default: the file name without extension.
    ///   - gpxStart: when a GPX file has no times, the time of its first point (`--start`), Unix ms.
    /// - Throws: `HistoryError` when the file cannot be opened or read, or a GPX file is malformed;
    ///   whatever `onReject` throws.
    public func read(path: String, gpxUser: String? = nil,
                     gpxStart: Int64 = GPXReader.defaultStart) throws {
        switch HistoryFormat.of(path: path, forced: fields.format) {
        case .gpx: try readGPX(path: path, user: gpxUser ?? HistoryBuilder.defaultUser(forGPXPath: path), start: gpxStart)
        case .csv: try readCSV(path: path)
        case .jsonLines: try readJSONLines(path: path)
        }
    }

    /// Reads a JSON Lines file (`-` is stdin) in 4 MiB blocks; a regular file of at least 1 MiB
    /// is split at line boundaries into `threads` parts parsed at the same time.
    /// - Throws: `HistoryError.cannotOpen` naming the path, `.readFailed`, or what `onReject` throws.
    public func readJSONLines(path: String) throws {
        let input = try meter.open(path: path, callback: progress)
        defer { withExtendedLifetime(input) {} }
        let fd = input.fd, regular = input.regular, size = input.size
        stats.files += 1
        if regular && path != "-" && threads > 1 && size >= parallelMinBytes {
            closeTail()
            _ = try readParallel(fd: fd, path: path, size: size, ends: partEnds(size: size), meter: meter, csvHeader: nil)
        } else {
            let chunk = sequentialChunk(expectedFixes: size / HistoryBuilder.minLineBytes)
            defer { absorbStats(chunk) }
            let reader = try BlockLineReader(fd: fd, path: path)
            meter.watch(reader)
            let handler = onReject
            reader.onTooLong = { lineNo, p, kept, length in
                try chunk.handleTooLong(path, lineNo, p, kept, length, csv: false, handler)
            }
            try reader.forEachLine { lineNo, p, n in try chunk.handle(path, lineNo, p, n, handler) }
        }
        meter.end()
    }

    /// Reads a CSV file (`-` is stdin; docs/history-format.md) in 4 MiB blocks, its first
    /// non-blank row the header; a regular file of at least 1 MiB is split at line boundaries
    /// into `threads` parts parsed at the same time (read again on one thread when a quoted
    /// cell spans a boundary).
    /// - Throws: `HistoryError.cannotOpen` naming the path, `.readFailed`, or what `onReject` throws.
    public func readCSV(path: String) throws {
        let input = try meter.open(path: path, callback: progress)
        defer { withExtendedLifetime(input) {} }
        let fd = input.fd, regular = input.regular, size = input.size
        stats.files += 1
        defer { meter.end() }
        if regular && path != "-" && threads > 1 && size >= parallelMinBytes,
           let header = try CSVHeaderScan.first(fd: fd, path: path, size: size) {
            closeTail()
            if try readParallel(fd: fd, path: path, size: size, ends: partEnds(size: size), meter: meter, csvHeader: header) {
                return
            }
            meter.rewind()
        }
        let chunk = sequentialChunk(expectedFixes: size / HistoryBuilder.minLineBytes)
        chunk.csv.beginFile()
        let reader = try BlockLineReader(fd: fd, path: path, quoted: true)
        defer {
            chunk.stats.linesRead += reader.lines
            absorbStats(chunk)
        }
        meter.watch(reader)
        let handler = onReject
        reader.onTooLong = { lineNo, p, kept, length in
            try chunk.handleTooLong(path, lineNo, p, kept, length, csv: true, handler)
        }
        try reader.forEachLine { lineNo, p, n in try chunk.handleCSV(path, lineNo, p, n, handler) }
    }

    /// A lower bound of the length of a line holding a fix, to reserve (untouched) capacity.
    static let minLineBytes = 32

    /// The smallest part of a file read on several threads (the last parts are about this size).
    var partBytes = 4 << 20
    /// At most this many parts per thread.
    static let partsPerThread = 16

    /// Where the parts of a file of `size` bytes read on `threads` threads should end (before
    /// each end is moved to the next line start), the last end excluded. The threads take the
    /// parts in file order, whichever is free, so a thread that shares its core (with the
    /// campaigns' loading, or another process) takes fewer: with one part per thread, the thread
    /// beside the campaigns' loading ended L's reading 0.35 s after the other, which then waited
    /// on an idle core (docs/performance-log.md, "L's throughput and the cores, tenth
    /// session"). Each part is a share of what is left, half of it divided among the threads
    /// (guided scheduling), at least `partBytes` (and at most the file over the threads, so
    /// that a small file still has a part per thread): the first parts are large, the last ones
    /// small, so that the threads run out of work together.
    func partEnds(size: Int) -> [Int] {
        let smallest = max(1, min(partBytes, size / threads))
        var ends: [Int] = []
        var at = 0
        while ends.count < threads * HistoryBuilder.partsPerThread - 1 {
            at += max(smallest, (size - at) / (2 * threads))
            if at >= size { break }
            ends.append(at)
        }
        return ends
    }

    /// Adds what `chunk` read.
    private func keep(_ chunk: HistoryChunk, map: [Int32]?) {
        stats.add(chunk.stats)
        segments.append(Segment(fixes: chunk.fixes, runs: chunk.runs, counts: chunk.counts, map: map))
    }

    /// The chunk that files read on this thread append to (one for consecutive such files, so
    /// that many small files do not cost a segment each).
    private func sequentialChunk(expectedFixes: Int) -> HistoryChunk {
        if let t = tail { return t }
        let t = HistoryChunk(fields: fields, until: until, interner: interner, collectRejects: false,
                             expectedFixes: expectedFixes)
        tail = t
        return t
    }

    /// Moves the counters of the sequential chunk to the builder's.
    private func absorbStats(_ chunk: HistoryChunk) {
        stats.add(chunk.stats)
        chunk.stats = HistoryStats()
    }

    /// Ends the sequential chunk: its fixes become a segment (before any that follow).
    private func closeTail() {
        guard let t = tail else { return }
        tail = nil
        segments.append(Segment(fixes: t.fixes, runs: t.runs, counts: t.counts, map: nil))
    }

    /// Reads the regular file open as `fd` in parts on `threads` threads, each thread taking the
    /// next part in file order when it is done with one, then merges them in file order. The
    /// parts end at the line starts at or after `ends` (`partEnds(size:)`), and at `size`. With
    /// `csvHeader` (the header row and the offset after it) the file is CSV: the parts after the
    /// first start with that header.
    /// - Returns: false, with nothing kept, when a CSV part ends mid-row (a quoted cell spans
    ///   the boundary): the caller reads the file again on one thread.
    private func readParallel(fd: Int32, path: String, size: Int, ends: [Int], meter: ProgressMeter,
                              csvHeader: CSVHeaderScan?) throws -> Bool {
        var bounds = [0]
        for end in ends {
            let at = max(end, bounds[bounds.count - 1], csvHeader?.end ?? 0)
            bounds.append(try HistoryBuilder.lineStart(fd: fd, path: path, atOrAfter: at, size: size))
        }
        bounds.append(size)
        let parts = bounds.count - 1
        let collect = onReject != nil
        let chunks = (0..<parts).map { k in
            HistoryChunk(fields: fields, until: until, collectRejects: collect,
                         expectedFixes: (bounds[k + 1] - bounds[k]) / HistoryBuilder.minLineBytes)
        }
        let failures = FailureBox(count: parts)
        let isCSV = csvHeader != nil
        // Part k (k < parts - 1) ended mid-row (its last line end was inside quotes): flagged at k.
        let cut = FailureBox(count: parts)
        struct Cut: Error {}
        let claims = ChunkClaims(count: parts)
        DispatchQueue.concurrentPerform(iterations: min(threads, parts)) { _ in
            // One reader (and read buffer) per thread, for every part it takes.
            var reader: BlockLineReader?
            while let k = claims.next() {
                let chunk = chunks[k]
                do {
                    let range = bounds[k]..<bounds[k + 1]
                    let partReader: BlockLineReader
                    if let reader {
                        try reader.restart(range: range)
                        partReader = reader
                    } else {
                        partReader = try BlockLineReader(fd: fd, path: path, range: range, quoted: isCSV)
                        meter.watch(partReader)
                        reader = partReader
                    }
                    partReader.onTooLong = { lineNo, p, kept, length in
                        try chunk.handleTooLong(path, lineNo, p, kept, length, csv: isCSV, nil)
                    }
                    if let header = csvHeader {
                        if k > 0 { header.bytes.withUnsafeBufferPointer { b in
                            if let base = b.baseAddress { _ = chunk.csv.setHeader(base, b.count) }
                        } }
                        try partReader.forEachLine { lineNo, p, n in try chunk.handleCSV(path, lineNo, p, n, nil) }
                        chunk.lines = partReader.lines
                        chunk.stats.linesRead += partReader.lines
                        if partReader.endedMidRow && k < parts - 1 { cut.set(k, Cut()) }
                    } else {
                        try partReader.forEachLine { lineNo, p, n in try chunk.handle(path, lineNo, p, n, nil) }
                    }
                    // The last huge page of each column is mostly unwritten: with many parts
                    // those halves added up (L: about 35 MB at the peak).
                    chunk.fixes.releaseUnused()
                    chunk.runs.releaseUnused()
                } catch {
                    failures.set(k, error)
                }
            }
        }
        if let e = failures.first { throw e }
        if cut.first != nil { return false }
        var lineOffset = 0
        var delayed: [(Int, [RejectedLine])] = []
        for chunk in chunks {
            // Interning each part's users in part order numbers them in order of first appearance
            // in the file, as one thread would.
            let local = chunk.interner
            var map = [Int32](repeating: 0, count: local.count)
            for u in 0..<local.count {
                map[u] = local.withBytes(u) { p, n in interner.intern(p, n) }
            }
            keep(chunk, map: map)
            if !chunk.rejects.isEmpty { delayed.append((lineOffset, chunk.rejects)) }
            chunk.rejects = []
            lineOffset += chunk.lines
        }
        if let handler = onReject {
            for (offset, rejects) in delayed {
                for var r in rejects {
                    r.line += offset
                    try handler(r)
                }
            }
        }
        return true
    }

    /// The offset of the first line that starts at or after `at` (`size` when none does).
    static func lineStart(fd: Int32, path: String, atOrAfter at: Int, size: Int) throws -> Int {
        if at <= 0 { return 0 }
        var pos = at - 1
        var window = [UInt8](repeating: 0, count: 64 << 10)
        while pos < size {
            let r = window.withUnsafeMutableBytes { w in pread(fd, w.baseAddress, min(w.count, size - pos), off_t(pos)) }
            if r < 0 {
                if errno == EINTR { continue }
                throw HistoryError.readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if r == 0 { return size }
            let nl = window.withUnsafeBytes { w -> Int? in
                guard let base = w.baseAddress, let hit = memchr(base, 0x0A, r) else { return nil }
                return UnsafeRawPointer(hit) - base
            }
            if let nl { return pos + nl + 1 }
            pos += r
        }
        return size
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
        let chunk = sequentialChunk(expectedFixes: 0)
        defer { absorbStats(chunk) }
        let handler = onReject
        // A trailing NUL keeps the buffer non-empty; it is never part of a line.
        let padded = bytes + [0]
        try padded.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            for (k, (s0, e0)) in lines.enumerated() {
                var ls = s0, le = e0
                if le > ls && base[le - 1] == 0x0D { le -= 1 }
                if k == 0 && le - ls >= 3 && base[ls] == 0xEF && base[ls + 1] == 0xBB && base[ls + 2] == 0xBF { ls += 3 }
                try chunk.handle(name, k + 1, base + ls, le - ls, handler)
            }
        }
    }

    /// Reads a GPX file as the fixes of `user`.
    /// - Throws: `HistoryError.cannotOpen`, `.malformedGPX`, or what `onReject` throws.
    public func readGPX(path: String, user: String, start: Int64 = GPXReader.defaultStart) throws {
        let result = try GPXReader.read(path: path, start: start)
        stats.files += 1
        let u = interner.intern(user)
        let chunk = sequentialChunk(expectedFixes: 0)
        defer { absorbStats(chunk) }
        for item in result.items {
            chunk.stats.linesRead += 1
            switch item {
            case .fix(let fix):
                chunk.add(fix, user: u)
            case .rejected(let r):
                try chunk.rejected(r, onReject)
            }
        }
    }

    /// Groups the fixes by user, sorts each user's fixes by time (stable) and returns the
    /// history. Users without any kept fix are left out. The builder is spent.
    /// - Complexity: O(n) to group, plus O(k log k) per user whose k fixes were out of order.
    public func finish() -> History {
        finishPacked().unpack(threads: threads)
    }

    /// As `finish()`, with every user's fixes packed in a few large buffers (for a batch replay:
    /// no array per user). When every part of the input holds each of its users' fixes in one
    /// stretch (input grouped by user), the parts' own buffers are kept as they are; else the
    /// fixes are moved to one buffer by a counting sort. The builder is spent.
    /// - Complexity: as `finish()`.
    func finishPacked() -> PackedHistory {
        closeTail()
        let users = interner.count
        var total = [Int](repeating: 0, count: users)
        for seg in segments {
            if let map = seg.map {
                for (l, c) in seg.counts.enumerated() { total[Int(map[l])] += c }
            } else {
                for (u, c) in seg.counts.enumerated() { total[u] += c }
            }
        }
        var start = [Int](repeating: 0, count: users + 1)
        for u in 0..<users { start[u + 1] = start[u] + total[u] }
        let all = start[users]
        let workers = all >= parallelMinFixes ? max(1, threads) : 1
        let grouped = groupedPlaces(total: total)
        let (places, columns) = grouped ?? scatterAll(start: start, workers: workers)
        segments = []
        // Users in `workers` runs of about equal fix counts, each run sorted (and its ids made)
        // by one thread.
        var runs = [0]
        for w in 1..<workers {
            var u = runs[w - 1]
            while u < users && start[u] < all / workers * w { u += 1 }
            runs.append(u)
        }
        runs.append(users)
        let out = UnsafeMutablePointer<[String]>.allocate(capacity: workers)
        out.initialize(repeating: [], count: workers)
        defer {
            out.deinitialize(count: workers)
            out.deallocate()
        }
        let interner = self.interner, bases = columns.map(\.base)
        let build = { (w: Int) in
            var ids: [String] = []
            for u in runs[w]..<runs[w + 1] where total[u] > 0 {
                ids.append(interner.string(u))
                let p = places[u]
                HistoryBuilder.stableSortByTime(UnsafeMutableBufferPointer(start: bases[p.column] + p.start, count: p.count))
            }
            out[w] = ids
        }
        if workers == 1 {
            build(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { w in build(w) }
        }
        var ids: [String] = []
        ids.reserveCapacity(users)
        for w in 0..<workers {
            ids += out[w]
            out[w] = []
        }
        let kept = (0..<users).filter { total[$0] > 0 }.map { places[$0] }
        return PackedHistory(userIds: ids, places: kept, columns: columns, regrouped: grouped == nil, stats: stats)
    }

    /// Counting sort of every fix into one buffer (user `u`'s fixes from `start[u]`), part by
    /// part, each part's memory handed back as it is copied.
    private func scatterAll(start: [Int], workers: Int) -> ([PackedHistory.Place], [MappedColumn<Fix>]) {
        let users = start.count - 1
        let column = MappedColumn<Fix>(zeroed: start[users], hugePages: true)
        var filled = start
        var i = 0
        while i < segments.count {
            let batch = Array(segments[i..<min(segments.count, i + workers)])
            i += batch.count
            if batch.count == 1 {
                HistoryBuilder.scatter(batch[0], into: column.base, filled: &filled)
                continue
            }
            // Each part of the batch starts where the parts before it end, user by user.
            var froms: [[Int]] = []
            for seg in batch {
                froms.append(filled)
                if let map = seg.map {
                    for (l, c) in seg.counts.enumerated() { filled[Int(map[l])] += c }
                } else {
                    for (u, c) in seg.counts.enumerated() { filled[u] += c }
                }
            }
            let base = column.base
            DispatchQueue.concurrentPerform(iterations: batch.count) { b in
                var mine = froms[b]
                HistoryBuilder.scatter(batch[b], into: base, filled: &mine)
            }
        }
        let places = (0..<users).map { PackedHistory.Place(column: 0, start: start[$0], count: start[$0 + 1] - start[$0]) }
        return (places, [column])
    }

    /// When every part holds each of its users' fixes in one stretch (input grouped by user):
    /// the place of each user's fixes in the parts' own buffers, which become the history's (the
    /// fixes are not copied). The fixes of a user found in several parts (at a part boundary, or
    /// in several files) are copied, in input order, into one more buffer. Nil, with nothing
    /// changed, when some part holds a user's fixes in more than one stretch.
    private func groupedPlaces(total: [Int]) -> ([PackedHistory.Place], [MappedColumn<Fix>])? {
        typealias Place = PackedHistory.Place
        var places = [Place](repeating: Place(column: -1, start: 0, count: 0), count: total.count)
        // The stretches of the users found in several parts, in input order.
        var pieces: [Int: [Place]] = [:]
        for (s, seg) in segments.enumerated() {
            let runs = seg.runs.base, n = seg.runs.count
            let ok = seg.counts.withUnsafeBufferPointer { counts -> Bool in
                // Consecutive runs are of different users (a run is cut only past Int32.max fixes).
                var k = 0
                for r in 0..<n {
                    let local = runs[r].user, c = Int(runs[r].count)
                    if c != counts[Int(local)] { return false }
                    let u = seg.map.map { Int($0[Int(local)]) } ?? Int(local)
                    let here = Place(column: s, start: k, count: c)
                    if places[u].column < 0 {
                        places[u] = here
                    } else {
                        if pieces[u] == nil { pieces[u] = [places[u]] }
                        pieces[u]?.append(here)
                    }
                    k += c
                }
                return true
            }
            if !ok { return nil }
        }
        var columns = segments.map(\.fixes)
        for seg in segments { seg.runs.releaseAll() }
        if !pieces.isEmpty {
            let spill = MappedColumn<Fix>(zeroed: pieces.keys.reduce(0) { $0 + total[$1] })
            var at = 0
            for u in pieces.keys.sorted() {
                places[u] = Place(column: columns.count, start: at, count: total[u])
                for p in pieces[u] ?? [] {
                    (spill.base + at).update(from: columns[p.column].base + p.start, count: p.count)
                    at += p.count
                }
            }
            columns.append(spill)
        }
        return (places, columns)
    }

    /// Copies the fixes of `seg` to their user's next place in `out` (`filled[u]`), handing
    /// back the part's memory as it goes.
    private static func scatter(_ seg: Segment, into out: UnsafeMutablePointer<Fix>, filled: inout [Int]) {
        let src = seg.fixes.base, runs = seg.runs.base, runCount = seg.runs.count
        let step = 1 << 16
        let identity: [Int32] = seg.map == nil ? Array(0..<Int32(seg.counts.count)) : []
        filled.withUnsafeMutableBufferPointer { fill in
            (seg.map ?? identity).withUnsafeBufferPointer { m in
                var k = 0, released = 0
                for r in 0..<runCount {
                    let u = Int(m[Int(runs[r].user)]), c = Int(runs[r].count)
                    (out + fill[u]).initialize(from: src + k, count: c)
                    fill[u] += c
                    k += c
                    if k - released >= step {
                        seg.fixes.release(below: k)
                        seg.runs.release(below: r)
                        released = k
                    }
                }
            }
        }
        seg.fixes.releaseAll()
        seg.runs.releaseAll()
    }

    /// Parses an RFC 3339 instant with offset (for `--until` and `--start`); see `RFC3339.parse`.
    public static func parseRFC3339(_ s: String) -> Int64? { RFC3339.parse(s) }

    /// Sorts `a` by time, keeping the input order of equal times.
    static func stableSortByTime(_ a: inout [Fix]) {
        a.withUnsafeMutableBufferPointer { stableSortByTime($0) }
    }

    /// Sorts the fixes of `a` by time in place, keeping the input order of equal times.
    static func stableSortByTime(_ a: UnsafeMutableBufferPointer<Fix>) {
        var i = 1
        while i < a.count && a[i].time >= a[i - 1].time { i += 1 }
        if i >= a.count { return }
        // The standard library's sort is documented as stable.
        var b = a
        b.sort { $0.time < $1.time }
    }
}
