import Foundation

/// `geocampaign stream` (state.md 2): reads JSON Lines as they arrive (a pipe, standard input,
/// or with `follow` a growing file), takes each line as a batch of its own, and prints each
/// decision as soon as it is settled, through the one engine resumed (`Replay.resume`) on every
/// user's state kept in memory. Commits the state, the same database as batch runs, every
/// `commitEveryMs` of wall-clock time, at the end of input and on SIGINT or SIGTERM.
///
/// Exactly once into `--output FILE`: at each commit the file is synced, then its length is
/// committed with the state and the input's byte offset; a restart cuts the file back to that
/// length and, for a regular input file, reads on from that offset.
public struct StreamDriver {
    /// Campaigns, the input (`historyPaths`: none or `-` for stdin, or one file), `--output`,
    /// `--rejects`, `--field`, `--quiet`.
    public var history: HistoryOptions
    /// The state database.
    public var statePath: String
    /// Keep reading a regular file as it grows.
    public var follow: Bool
    /// Wall-clock milliseconds between commits.
    public var commitEveryMs: Int64
    /// At most this many lines in one micro-batch (1: every line resumed on its own).
    public var maxBatchLines = 8192
    /// Bytes asked of each read (the buffer grows for longer lines).
    public var readBytes = 1 << 20
    /// Micro-batches with fewer accepted fixes are resumed at once on the reading thread; larger
    /// ones, when more input waits, on the worker threads while the next one is parsed (0: every
    /// one then; `Int.max`: none).
    public var inlineFixes = 512
    /// Resume threads (nil: the machine's cores).
    public var threads: Int?
    /// Stream-time milliseconds after a user's latest fix before they are written and dropped
    /// from memory at the next commit, to be loaded back by their next fix (nil: `idleBound` of
    /// the campaigns; `Int64.max`: never). The record is the user's whole state, so any value
    /// prints the same decisions; the bound only trades memory for database reads.
    public var idleAfterMs: Int64?
    /// Tests: also commit after the reads for which this returns true (given the number of
    /// reads so far), for seeded commit points that do not depend on the machine's speed.
    var commitAfterRead: ((Int) -> Bool)?
    /// Tests (negative controls): applied to every user state read from the database.
    var onLoad: ((inout UserState) -> Void)?
    /// Called after each commit with the users in memory and the users dropped as idle so far.
    public var observeCommit: ((_ inMemory: Int, _ evicted: Int) -> Void)?

    /// Creates a driver.
    public init(history: HistoryOptions, statePath: String, follow: Bool, commitEveryMs: Int64) {
        self.history = history
        self.statePath = statePath
        self.follow = follow
        self.commitEveryMs = commitEveryMs
    }

    /// The SQLite page cache of a stream, in KiB (docs/stream.md, idle users).
    static let pageCacheKiB = 16 * 1024

    /// `--commit-every`: a duration of the campaign format (`1s`, `2m`) or whole milliseconds
    /// (`500ms`), in ms; nil when invalid or not positive.
    public static func commitInterval(_ text: String) -> Int64? {
        if text.hasSuffix("ms") {
            let digits = text.dropLast(2)
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let ms = Int64(digits), ms > 0 else { return nil }
            return ms
        }
        guard let ms = try? ValueParser.duration(text), ms > 0 else { return nil }
        return ms
    }

    /// `--idle-after`: a duration (`0s` and up) in ms, `Int64.max` for `never`, nil when invalid.
    public static func idleInterval(_ text: String) -> Int64? {
        if text == "never" { return .max }
        guard let ms = try? ValueParser.duration(text), ms >= 0 else { return nil }
        return ms
    }

    /// Runs until the input ends or a signal asks it to stop; returns what it counted.
    public func run(_ makeRender: (CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]) throws -> RunSummary {
        let clock = StageClock()
        let store = try StateStore(path: statePath, create: true)
        try store.begin()
        if let at = try store.meta("final_at") {
            store.rollback()
            throw RunError.data("\(statePath): the state was finalized at \(at) (--final); a final state takes no more fixes: start a new state")
        }
        if let other = try store.meta("command"), other != "evaluate" {
            store.rollback()
            throw RunError.data("\(statePath): the state holds '\(other)' runs; a stream prints decisions and continues 'evaluate' states only: use another --state")
        }
        let campaigns: CampaignSet
        do { campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet } catch { store.rollback(); throw error }
        // The regions and rules compile beside the fingerprints (which hash every region's geometry).
        let compiled = BackgroundTask { Replay(campaigns: campaigns, options: .init(threads: 1, evaluateRules: true)) }
        let runs = Int(try store.meta("runs") ?? "0") ?? 0
        let (entries, _) = try StatefulDriver.reconcile(store: store, campaigns: campaigns, runs: runs)
        try store.setCampaigns(entries)
        try store.setMeta("command", "evaluate")
        let slots = entries.map(\.slot)
        // Records are read with the slots this run writes: a user dropped as idle and loaded back
        // within the run carries the slots of new and changed campaigns too. (`reconcile` maps
        // only the slots the state knew before the run; with that map a user loaded back lost
        // the parts and tracks of every campaign new to the state, issue 11.) A record of an
        // earlier run holds no slot that is new in this one (slots are never reused).
        let campaignOfSlot = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.slot, $0) })

        // The input, at the committed offset when it is the same regular file.
        let path = history.historyPaths.first ?? "-"
        let input = try OpenedInput(path: path)
        let source = path == "-" ? "-" : (URL(fileURLWithPath: path).standardizedFileURL.path)
        // A restart of the stream this state last committed (same source): the output files are
        // cut back to their committed lengths and a regular file is read on from the committed
        // offset. Another source starts at its beginning and appends to the output files.
        let continuing = try store.meta("stream_source") == source
        var offset: Int64 = 0
        let lines = continuing ? Int(try store.meta("stream_lines") ?? "0") ?? 0 : 0
        if continuing, input.regular, let o = Int64(try store.meta("stream_offset") ?? ""), o > 0, o <= Int64(input.size) || follow {
            guard lseek(input.fd, off_t(o), SEEK_SET) == o else { throw RunError.failure("\(path): cannot seek to the committed offset \(o)") }
            offset = o
        }
        let output = try StreamFile(path: history.output, committed: Int64(try store.meta("stream_output_bytes") ?? "0") ?? 0,
                                    continuing: continuing)
        let rejects = try history.rejects.map {
            try StreamFile(path: $0, committed: Int64(try store.meta("stream_rejects_bytes") ?? "0") ?? 0, continuing: continuing)
        }
        // Committed at once, so that a crash before the first interval restarts from here.
        try store.setMeta("stream_source", source)
        try store.setMeta("stream_offset", String(offset))
        try store.setMeta("stream_lines", String(lines))
        try store.setMeta("stream_output_bytes", String(output.length))
        try store.setMeta("stream_rejects_bytes", String(rejects?.length ?? 0))
        try store.commit()
        // From here on a commit waits for a reader (`--state-info`) to finish instead of failing
        // the stream; a second run on the state still fails at once at its start.
        try store.setBusyTimeout(ms: 5000)
        // A stream commits every second: the batch runs' 256 MiB page cache would grow with the
        // state (a 97 MB state of 1M users held 130 MB of pages), not with the active users.
        try store.setCacheSize(kib: Self.pageCacheKiB)
        // A stream has no next run to copy its write-ahead log into the database: its commits
        // do it once the log holds 1000 pages (4 MB), SQLite's default.
        try store.setAutoCheckpoint(pages: 1000)

        let replay = compiled.value
        let render = makeRender(campaigns)
        var fields = HistoryFields()
        for (name, src) in history.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try fields.apply("\(name)=\(src)") } catch { throw RunError.usage("--field \(name)=\(src): \(error)") }
        }
        let session = try Session(replay: replay, render: render, store: store, campaignOfSlot: campaignOfSlot,
                                  statePath: statePath, path: path, parser: JSONLineParser(fields: fields), lines: lines,
                                  threads: threads ?? ProcessInfo.processInfo.activeProcessorCount, inlineFixes: inlineFixes)
        session.onLoad = onLoad
        let idleMs = idleAfterMs ?? Self.idleBound(campaigns)
        StreamSignals.install()

        func commit() throws {
            try session.finish(output: output, rejects: rejects)
            try output.sync()
            try rejects?.sync()
            // Idle users are written with the others and dropped once the commit stands.
            let idle = session.idle(idleMs)
            try store.begin()
            // In byte order of the ids: each block of the state is read and written once.
            let dirty = Array(session.dirty)
            try store.putRecords(Replay.byteOrder(dirty.map(\.id)).compactMap { k in
                session.users[dirty[k]].map { (dirty[k].id, $0.held, $0.encoded(slots: slots)) }
            })
            try store.setMeta("stream_source", source)
            try store.setMeta("stream_offset", String(offset))
            try store.setMeta("stream_lines", String(session.lines))
            try store.setMeta("stream_output_bytes", String(output.length))
            try store.setMeta("stream_rejects_bytes", String(rejects?.length ?? 0))
            try store.commit()
            session.dirty.removeAll(keepingCapacity: true)
            session.drop(idle)
            observeCommit?(session.users.count, session.evicted)
        }

        // Complete lines are taken as soon as reads return them, in micro-batches of at most
        // `maxBatchLines`; the offset advances by whole micro-batches. From a pipe, a round of
        // reads takes what the input holds at once (up to the buffer), so that a fast producer
        // gives full micro-batches and a paced one is taken line by line as it comes.
        var buffer = [UInt8](repeating: 0, count: readBytes)
        var filled = 0
        var ranges: [Range<Int>] = []
        var lastCommit = Date()
        if !input.regular { StreamInput.widenPipe(input.fd, bytes: readBytes) }
        var reads = 0
        func takeLines() throws {
            // Whether more input waits after these lines (a file can always be read on): only
            // then is a large micro-batch resumed beside the parsing of the next one; a stream
            // catching up after a pause takes its last micro-batch at once, with no thread hop.
            let waiting = input.regular || StreamInput.ready(input.fd, waitMs: 0)
            try buffer.withUnsafeBufferPointer { buf in
                var k = 0
                while k < ranges.count {
                    let top = min(ranges.count, k + maxBatchLines)
                    try session.take(buf, ranges[k..<top], more: top < ranges.count || waiting, output: output, rejects: rejects)
                    k = top
                }
            }
        }
        /// Writes and flushes every decision of the lines taken so far.
        func settle() throws {
            try session.finish(output: output, rejects: rejects)
            try output.flush()
            try rejects?.flush()
        }
        var ended = false
        reading: while !ended {
            if StreamSignals.stop { break }
            if !input.regular && !StreamInput.ready(input.fd, waitMs: 0) {
                // Nothing to read now: the decisions of what was read are written before waiting.
                try settle()
                let waitMs = max(0, min(100, commitEveryMs - Int64(Date().timeIntervalSince(lastCommit) * 1000)))
                if !StreamInput.ready(input.fd, waitMs: Int32(waitMs)) {
                    if Date().timeIntervalSince(lastCommit) * 1000 >= Double(commitEveryMs) {
                        try commit()
                        lastCommit = Date()
                    }
                    continue
                }
            }
            let scanFrom = filled
            var got = 0
            while true {
                if filled == buffer.count {
                    if got > 0 { break }
                    buffer += [UInt8](repeating: 0, count: buffer.count)
                }
                let n = buffer.withUnsafeMutableBytes { read(input.fd, $0.baseAddress! + filled, $0.count - filled) }
                if n < 0 {
                    if errno == EINTR { if got > 0 { break } else { continue reading } }
                    throw RunError.failure("\(path): read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 {
                    if follow && input.regular {
                        try settle()
                        usleep(20_000)
                    } else {
                        ended = true
                    }
                    break
                }
                filled += n
                got += n
                if input.regular || !StreamInput.ready(input.fd, waitMs: 0) { break }
            }
            if got > 0 {
                // Complete lines from the start of the buffer; the rest waits for the next read.
                var start = 0
                buffer.withUnsafeBufferPointer { buf in
                    let base = buf.baseAddress!
                    var i = scanFrom
                    while i < filled, let hit = memchr(base + i, 0x0A, filled - i) {
                        let nl = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        ranges.append(start..<nl)
                        start = nl + 1
                        i = nl + 1
                    }
                }
                if !ranges.isEmpty {
                    try takeLines()
                    offset += Int64(start)
                    ranges.removeAll(keepingCapacity: true)
                    buffer.withUnsafeMutableBufferPointer { b in
                        let rest = filled - start
                        if rest > 0 { memmove(b.baseAddress!, b.baseAddress! + start, rest) }
                    }
                    filled -= start
                }
                try output.flush()
                try rejects?.flush()
            }
            reads += 1
            if Date().timeIntervalSince(lastCommit) * 1000 >= Double(commitEveryMs) || commitAfterRead?(reads) == true {
                try commit()
                lastCommit = Date()
            }
        }
        if filled > 0 && !StreamSignals.stop {
            ranges = [0..<filled]
            try takeLines()
            offset += Int64(filled)
            ranges.removeAll()
            filled = 0
        }
        try settle()
        try commit()
        var counters = session.counters
        counters.users = session.usersCounted
        counters.fixes = session.stats.fixesAccepted
        return RunSummary(stats: session.stats, counters: counters, clock: clock, decisions: true)
    }
}
