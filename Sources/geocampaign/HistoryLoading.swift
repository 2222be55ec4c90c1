import Foundation
import GeoCampaignCore

/// Reads the histories named by the options, writing rejects as they come: either whole
/// (`read`) or user by user for input grouped by user (`stream`, `--sorted`).
enum HistoryLoading {
    private struct StrictStop: Error {
        var reject: RejectedLine
    }

    /// What both ways of reading share: field mapping, the rejects file and `--strict`.
    private struct Setup {
        var fields = HistoryFields()
        var rejects: LazyRejects
        var onReject: (RejectedLine) throws -> Void = { _ in }
        var totalBytes = 0
    }

    /// The rejects file, created when first needed: at the first rejected line, when reading
    /// ends or when it fails, each time after `gate` has passed (see `read`).
    private final class LazyRejects {
        private let path: String?
        private let gate: () throws -> Void
        private var opened: RejectsWriter?
        private var tried = false

        init(path: String?, gate: @escaping () throws -> Void) {
            self.path = path
            self.gate = gate
        }

        /// Passes the gate, then opens the file if one is named (once).
        func open() throws -> RejectsWriter? {
            try gate()
            guard let path, !tried else { return opened }
            tried = true
            do {
                opened = try RejectsWriter(path: path)
            } catch {
                throw CLIError(message: "\(path): cannot be written: \(error)", code: .failure)
            }
            return opened
        }

        func close() throws { try opened?.close() }
    }

    private static func setup(_ o: HistoryOptions, gate: @escaping () throws -> Void) throws -> Setup {
        var s = Setup(fields: o.baseFields, rejects: LazyRejects(path: o.rejects, gate: gate))
        for (name, source) in o.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try s.fields.apply("\(name)=\(source)") } catch {
                try gate()
                throw CLIError(message: "--field \(name)=\(source): \(error)", code: .usage)
            }
        }
        let rejects = s.rejects, strict = o.strict
        s.onReject = { r in
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
    /// errors come in the order of the stages: gate, rejects file, reading).
    private static func mapping<T>(_ rejects: LazyRejects, _ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            // A --strict stop and the gate's or the rejects file's own errors have passed (or are)
            // those stages already; any other failure is told only once they have passed.
            if !(error is StrictStop || error is CLIError) { _ = try rejects.open() }
            try? rejects.close()
            throw cliError(error)
        }
        _ = try rejects.open()
        try rejects.close()
        return result
    }

    /// The message and exit status of a reading error.
    private static func cliError(_ error: Error) -> Error {
        switch error {
        case let stop as StrictStop:
            let r = stop.reject
            return CLIError.data("\(r.path):\(r.line): rejected line (\(r.reason.rawValue)): \(r.detail); --strict makes any rejected line fatal")
        case HistoryError.cannotOpen(let path, let reason):
            return CLIError.noInput(path, reason)
        case let e as HistoryError:
            if case .malformedGPX = e { return CLIError(message: e.description, code: .dataError) }
            return CLIError(message: e.description, code: .failure)
        case let e as HistorySortError:
            return CLIError.data(e.description)
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
    static func read(_ o: HistoryOptions, progress: ProgressLine? = nil, gpxUser: String? = nil, gpxStartMs: Int64? = nil,
                     gate: (() throws -> Void)? = nil) throws -> (History, HistoryStats) {
        let s = try setup(o, gate: gate ?? {})
        // Without a gate nothing waits: the rejects file is created before reading, as any bad path is best told at once.
        if gate == nil { _ = try s.rejects.open() }
        let builder = HistoryBuilder(fields: s.fields, until: o.untilMs)
        builder.threads = o.threads
        builder.onReject = s.onReject
        builder.progress = report(progress, total: s.totalBytes)
        let history = try mapping(s.rejects) { () throws -> History in
            for path in o.historyPaths {
                try builder.read(path: path, gpxUser: gpxUser, gpxStart: gpxStartMs ?? GPXReader.defaultStart)
            }
            return builder.finish()
        }
        progress?.finish()
        return (history, history.stats)
    }

    /// Streams histories grouped by user (`--sorted`), handing each user to `onUser` as its lines end.
    /// A user whose lines come back after another user's is an error naming the line (exit 65).
    static func stream(_ o: HistoryOptions, progress: ProgressLine? = nil, onUser: @escaping (String, [Fix]) throws -> Void) throws -> HistoryStats {
        let s = try setup(o, gate: {})
        _ = try s.rejects.open()
        let reader = SortedHistoryReader(fields: s.fields, until: o.untilMs)
        reader.onReject = s.onReject
        reader.onUser = onUser
        reader.progress = report(progress, total: s.totalBytes)
        try mapping(s.rejects) {
            for path in o.historyPaths { try reader.read(path: path) }
            try reader.finish()
        }
        return reader.stats
    }
}
