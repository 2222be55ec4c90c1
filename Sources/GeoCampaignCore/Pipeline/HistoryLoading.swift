import Foundation

/// Reads the histories named by the options, writing rejects as they come: either whole
/// (`read`) or user by user for input grouped by user (`stream`, `--sorted`).
///
/// The rejects file is written aside: put in place when reading succeeds, or, when `files` is
/// given, added there to be put in place with the run's other outputs. A failed read leaves an
/// existing rejects file as it was.
public enum HistoryLoading {
    private struct StrictStop: Error {
        var reject: RejectedLine
    }

    /// What both ways of reading share: field mapping, the rejects file and `--strict`.
    private struct Setup {
        var fields = HistoryFields()
        var rejects: LazyRejects
        var onReject: (RejectedLine) throws -> Void = { _ in }
        var totalBytes = 0
        /// The first reject of each reason, to explain a history of which no line was accepted.
        var digest = RejectDigest()

        /// Throws when no line at all was accepted but some were rejected (exit 65, the most
        /// common reason and what to do about it).
        func refuseEmpty(_ stats: HistoryStats, paths: [String]) throws {
            if let m = digest.noFixMessage(stats: stats, paths: paths, fields: fields) { throw RunError.data(m) }
        }
    }

    /// The rejects file, created when first needed: at the first rejected line, when reading
    /// ends or when it fails, each time after `gate` has passed (see `read`).
    private final class LazyRejects {
        private let path: String?
        private let gate: () throws -> Void
        private var opened: RejectsWriter?
        private var tried = false
        private let files: PendingFiles?

        init(path: String?, gate: @escaping () throws -> Void, files: PendingFiles?) {
            self.path = path
            self.gate = gate
            self.files = files
        }

        /// Passes the gate, then opens the file if one is named (once).
        func open() throws -> RejectsWriter? {
            try gate()
            guard let path, !tried else { return opened }
            tried = true
            do {
                opened = try RejectsWriter(path: path)
            } catch {
                throw RunError.failure("\(path): cannot be written: \(error)")
            }
            return opened
        }

        /// Puts the file in place, or hands it to the run's pending files.
        func close() throws {
            guard let w = opened else { return }
            opened = nil
            if let files { files.add(commit: { try w.close() }, discard: { w.discard() }) } else { try w.close() }
        }

        /// Drops the file: an existing one stays as it was.
        func discard() {
            opened?.discard()
            opened = nil
        }
    }

    private static func setup(_ o: HistoryOptions, gate: @escaping () throws -> Void, files: PendingFiles?,
                              observe: ((RejectedLine) -> Void)? = nil) throws -> Setup {
        var s = Setup(fields: o.baseFields, rejects: LazyRejects(path: o.rejects, gate: gate, files: files))
        for (name, source) in o.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try s.fields.apply("\(name)=\(source)") } catch {
                try gate()
                throw RunError.usage("--field \(name)=\(source): \(error)")
            }
        }
        let rejects = s.rejects, strict = o.strict, digest = s.digest
        s.onReject = { r in
            digest.note(r)
            observe?(r)
            try rejects.open()?.write(r)
            if strict { throw StrictStop(reject: r) }
        }
        for path in o.historyPaths where path != "-" {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            s.totalBytes += size ?? 0
        }
        return s
    }

    /// Runs `body`, then creates and closes the rejects file, and maps reading errors to messages
    /// and exit statuses. A failure is reported only once the rejects file could be opened (so
    /// errors come in the order of the stages: gate, rejects file, reading); the file is then dropped.
    private static func mapping<T>(_ rejects: LazyRejects, _ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            // A --strict stop and the gate's or the rejects file's own errors have passed (or are)
            // those stages already; any other failure is told only once they have passed.
            if !(error is StrictStop || error is RunError) { _ = try rejects.open() }
            rejects.discard()
            throw runError(error)
        }
        _ = try rejects.open()
        try rejects.close()
        return result
    }

    /// The message and exit status of a reading error.
    private static func runError(_ error: Error) -> Error {
        switch error {
        case let stop as StrictStop:
            let r = stop.reject
            return RunError.data("\(r.path):\(r.line): rejected line (\(r.reason.rawValue)): \(r.detail); --strict makes any rejected line fatal")
        case HistoryError.cannotOpen(let path, let reason):
            return RunError.noInput(path, reason)
        case let e as HistoryError:
            if case .malformedGPX = e { return RunError.data(e.description) }
            return RunError.failure(e.description)
        case let e as HistorySortError:
            return RunError.data(e.description)
        default:
            return error
        }
    }

    private static func report(_ progress: ProgressLine?, total: Int) -> (HistoryProgress) -> Void {
        { p in progress?.update("reading", done: p.allBytesDone, total: total, unit: .bytes) }
    }

    /// Reads every history file whole; users are grouped and each one's fixes sorted by time.
    ///
    /// `gate` runs before anything is written (the rejects file) and before any error is
    /// reported; what it throws wins. `evaluate` and `events` read the history while the
    /// campaigns load, and their gate waits for the campaigns (and opens the output), so that a
    /// campaign error is reported as if the campaigns had been loaded first and no file is
    /// touched. It runs on the calling thread.
    /// `files`, when given, receives the rejects file to put in place with the run's other outputs.
    /// `observe`, when given, sees every rejected line (on the calling thread) before it is written.
    public static func read(_ o: HistoryOptions, progress: ProgressLine? = nil, gpxUser: String? = nil, gpxStartMs: Int64? = nil,
                            gate: (() throws -> Void)? = nil, files: PendingFiles? = nil,
                            observe: ((RejectedLine) -> Void)? = nil) throws -> (History, HistoryStats) {
        let (packed, stats) = try readPacked(o, progress: progress, gpxUser: gpxUser, gpxStartMs: gpxStartMs,
                                             gate: gate, files: files, observe: observe)
        return (packed.unpack(threads: o.threads), stats)
    }

    /// As `read`, with every user's fixes packed in one buffer (for the batch replay).
    static func readPacked(_ o: HistoryOptions, progress: ProgressLine? = nil, gpxUser: String? = nil, gpxStartMs: Int64? = nil,
                           gate: (() throws -> Void)? = nil, files: PendingFiles? = nil,
                           observe: ((RejectedLine) -> Void)? = nil) throws -> (PackedHistory, HistoryStats) {
        let s = try setup(o, gate: gate ?? {}, files: files, observe: observe)
        // Without a gate nothing waits: the rejects file is created before reading, as any bad path is best told at once.
        if gate == nil { _ = try s.rejects.open() }
        let builder = HistoryBuilder(fields: s.fields, until: o.untilMs)
        builder.threads = o.threads
        builder.onReject = s.onReject
        builder.progress = report(progress, total: s.totalBytes)
        let history = try mapping(s.rejects) { () throws -> PackedHistory in
            for path in o.historyPaths {
                try builder.read(path: path, gpxUser: gpxUser, gpxStart: gpxStartMs ?? GPXReader.defaultStart)
            }
            return builder.finishPacked()
        }
        progress?.finish()
        try s.refuseEmpty(history.stats, paths: o.historyPaths)
        return (history, history.stats)
    }

    /// Streams histories grouped by user (`--sorted`), handing each user to `onUser` as its lines end.
    /// A user whose lines come back after another user's is an error naming the line (exit 65).
    public static func stream(_ o: HistoryOptions, progress: ProgressLine? = nil, files: PendingFiles? = nil,
                              onUser: @escaping (String, [Fix]) throws -> Void) throws -> HistoryStats {
        let s = try setup(o, gate: {}, files: files)
        _ = try s.rejects.open()
        let reader = SortedHistoryReader(fields: s.fields, until: o.untilMs)
        reader.onReject = s.onReject
        reader.onUser = onUser
        reader.progress = report(progress, total: s.totalBytes)
        try mapping(s.rejects) {
            for path in o.historyPaths { try reader.read(path: path) }
            try reader.finish()
        }
        try s.refuseEmpty(reader.stats, paths: o.historyPaths)
        return reader.stats
    }
}
