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

    /// Creates a driver.
    public init(history: HistoryOptions, statePath: String, follow: Bool, commitEveryMs: Int64) {
        self.history = history
        self.statePath = statePath
        self.follow = follow
        self.commitEveryMs = commitEveryMs
    }

    /// `--commit-every`: a duration of the campaign format (`1s`, `500ms`, `2m`) in ms, nil when invalid or not positive.
    public static func commitInterval(_ text: String) -> Int64? {
        guard let ms = try? ValueParser.duration(text), ms > 0 else { return nil }
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
        let runs = Int(try store.meta("runs") ?? "0") ?? 0
        let (entries, campaignOfSlot) = try StatefulDriver.reconcile(store: store, campaigns: campaigns, runs: runs)
        try store.setCampaigns(entries)
        try store.setMeta("command", "evaluate")
        let slots = entries.map(\.slot)

        // The input, at the committed offset when it is the same regular file.
        let path = history.historyPaths.first ?? "-"
        let input = try OpenedInput(path: path)
        let source = path == "-" ? "-" : (URL(fileURLWithPath: path).standardizedFileURL.path)
        // A restart of the stream this state last committed (same source): the output files are
        // cut back to their committed lengths and a regular file is read on from the committed
        // offset. Another source starts at its beginning and appends to the output files.
        let continuing = try store.meta("stream_source") == source
        var offset: Int64 = 0
        var lines = continuing ? Int(try store.meta("stream_lines") ?? "0") ?? 0 : 0
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

        let replay = Replay(campaigns: campaigns, options: .init(threads: 1, evaluateRules: true))
        let context = replay.resumeContext()
        let render = makeRender(campaigns)
        var fields = HistoryFields()
        for (name, src) in history.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try fields.apply("\(name)=\(src)") } catch { throw RunError.usage("--field \(name)=\(src): \(error)") }
        }
        let parser = JSONLineParser(fields: fields)
        let reader = try store.userReader()
        var users: [String: UserState] = [:]
        var dirty = Set<String>()
        var stats = HistoryStats()
        var counters = ReplayCounters()
        StreamSignals.install()

        func commit() throws {
            try output.sync()
            try rejects?.sync()
            try store.begin()
            let writer = try store.userWriter()
            for id in dirty { if let s = users[id] { try writer.put(id, held: s.held, record: s.encoded(slots: slots)) } }
            try store.setMeta("stream_source", source)
            try store.setMeta("stream_offset", String(offset))
            try store.setMeta("stream_lines", String(lines))
            try store.setMeta("stream_output_bytes", String(output.length))
            try store.setMeta("stream_rejects_bytes", String(rejects?.length ?? 0))
            try store.commit()
            dirty.removeAll(keepingCapacity: true)
        }

        func handle(_ line: ArraySlice<UInt8>) throws {
            lines += 1
            stats.linesRead += 1
            var bytes = Array(line)
            if bytes.last == 0x0D { bytes.removeLast() }
            switch parser.parse(line: bytes) {
            case .blank:
                stats.blankLines += 1
            case let .rejected(reason, detail):
                stats.rejectCounts[reason.index] += 1
                try rejects?.append(RejectsWriter.line(for: RejectedLine(path: path, line: lines, reason: reason, detail: detail, text: bytes)))
            case let .accepted(user, fix):
                var state = users[user]
                if state == nil, let record = try reader.record(user) {
                    guard let s = UserState.decoded(record, campaignOfSlot: campaignOfSlot, campaignCount: campaigns.campaigns.count) else {
                        throw RunError.data("\(statePath): the record of user '\(user)' is damaged; the state cannot be continued")
                    }
                    state = s
                }
                if let s = state, fix.time < s.tEnd {
                    stats.rejectCounts[RejectReason.late.index] += 1
                    try rejects?.append(RejectsWriter.line(for: RejectedLine(path: path, line: lines, reason: .late,
                        detail: "\(Timestamp.string(fix.time)) is earlier than this user's latest fix, \(Timestamp.string(s.tEnd))", text: bytes)))
                    return
                }
                stats.fixesAccepted += 1
                guard let r = replay.resume(userId: user, state: state, batch: [fix], final: false, context: context) else { return }
                users[user] = r.state
                dirty.insert(user)
                var c = ReplayCounters()
                let out = render(r.outcome, &c)
                if !r.outcome.decisions.isEmpty { counters.add(c) }
                try output.append(out)
            }
        }

        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        var lastCommit = Date()
        var pendingOffset = offset
        reading: while true {
            if StreamSignals.stop { break }
            var fd = pollfd(fd: input.fd, events: Int16(POLLIN), revents: 0)
            let waitMs = max(0, min(100, commitEveryMs - Int64(Date().timeIntervalSince(lastCommit) * 1000)))
            let ready = input.regular ? 1 : poll(&fd, 1, Int32(waitMs))
            if ready > 0 {
                let n = buffer.withUnsafeMutableBytes { read(input.fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw RunError.failure("\(path): read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 {
                    if follow && input.regular {
                        try output.flush()
                        usleep(100_000)
                    } else {
                        break reading
                    }
                } else {
                    pending += buffer[0..<n]
                    var start = 0
                    while let nl = pending[start...].firstIndex(of: 0x0A) {
                        try handle(pending[start..<nl])
                        pendingOffset += Int64(nl + 1 - start)
                        offset = pendingOffset
                        start = nl + 1
                    }
                    pending.removeFirst(start)
                    try output.flush()
                }
            }
            if Date().timeIntervalSince(lastCommit) * 1000 >= Double(commitEveryMs) {
                try commit()
                lastCommit = Date()
            }
        }
        if !pending.isEmpty && !StreamSignals.stop {
            try handle(pending[...])
            offset += Int64(pending.count)
        }
        try output.flush()
        try commit()
        counters.users = users.count
        counters.fixes = stats.fixesAccepted
        return RunSummary(stats: stats, counters: counters, clock: clock, decisions: true)
    }
}

/// The stream's output or rejects file: appended to, synced at each commit, cut back at start
/// to the length the state committed; stdout when no path (or `-`).
final class StreamFile {
    private let handle: UnsafeMutablePointer<FILE>
    private let path: String
    private let isFile: Bool
    /// Bytes in the file (for a file).
    private(set) var length: Int64

    init(path: String?, committed: Int64, continuing: Bool) throws {
        guard let path, path != "-" else {
            handle = stdout
            self.path = "stdout"
            isFile = false
            length = 0
            return
        }
        self.path = path
        isFile = true
        let fd = open(path, O_WRONLY | O_CREAT, 0o666)
        guard fd >= 0 else { throw RunError.failure("\(path): cannot be written: \(String(cString: strerror(errno)))") }
        // What the last commit covered stays; anything after it is written again. A stream
        // that does not continue appends to what the file holds.
        let keep = continuing ? committed : Int64.max
        var st = stat()
        fstat(fd, &st)
        let cut = min(keep, Int64(st.st_size))
        if ftruncate(fd, off_t(cut)) != 0 || lseek(fd, 0, SEEK_END) < 0 {
            close(fd)
            throw RunError.failure("\(path): cannot be cut back to its committed length: \(String(cString: strerror(errno)))")
        }
        guard let f = fdopen(fd, "ab") else { close(fd); throw RunError.failure("\(path): cannot be written") }
        handle = f
        length = cut
    }

    deinit { if isFile { fclose(handle) } }

    func append(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        if n != bytes.count { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
        length += Int64(n)
    }

    func flush() throws {
        if fflush(handle) != 0 { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
    }

    /// Flushes and, for a file, syncs it to disk.
    func sync() throws {
        try flush()
        if isFile && fsync(fileno(handle)) != 0 { throw RunError.failure("\(path): sync failed: \(String(cString: strerror(errno)))") }
    }
}

/// SIGINT and SIGTERM ask the stream to commit and stop.
enum StreamSignals {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0
    static var stop: Bool { flag != 0 }

    static func install() {
        signal(SIGINT) { _ in StreamSignals.flag = 1 }
        signal(SIGTERM) { _ in StreamSignals.flag = 1 }
    }
}
