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
        var writer: RejectsWriter?
        var onReject: (RejectedLine) throws -> Void = { _ in }
        var totalBytes = 0
    }

    private static func setup(_ o: HistoryOptions) throws -> Setup {
        var s = Setup()
        for (name, source) in o.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try s.fields.apply("\(name)=\(source)") } catch { throw CLIError(message: "--field \(name)=\(source): \(error)", code: .usage) }
        }
        do {
            s.writer = try o.rejects.map { try RejectsWriter(path: $0) }
        } catch {
            throw CLIError(message: "\(o.rejects ?? ""): cannot be written: \(error)", code: .failure)
        }
        let writer = s.writer, strict = o.strict
        s.onReject = { r in
            try writer?.write(r)
            if strict { throw StrictStop(reject: r) }
        }
        for path in o.historyPaths where path != "-" {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            s.totalBytes += size ?? 0
        }
        return s
    }

    /// Runs `body`, closing the rejects file, and maps reading errors to messages and exit statuses.
    private static func mapping<T>(_ writer: RejectsWriter?, _ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            try writer?.close()
            return result
        } catch let stop as StrictStop {
            try? writer?.close()
            let r = stop.reject
            throw CLIError.data("\(r.path):\(r.line): rejected line (\(r.reason.rawValue)): \(r.detail); --strict makes any rejected line fatal")
        } catch let e as HistoryError {
            try? writer?.close()
            switch e {
            case .cannotOpen(let path, let reason): throw CLIError.noInput(path, reason)
            case .malformedGPX: throw CLIError(message: e.description, code: .dataError)
            default: throw CLIError(message: e.description, code: .failure)
            }
        } catch let e as HistorySortError {
            try? writer?.close()
            throw CLIError.data(e.description)
        } catch {
            try? writer?.close()
            throw error
        }
    }

    private static func report(_ progress: ProgressLine?, total: Int) -> (HistoryProgress) -> Void {
        { p in progress?.update("reading", done: p.allBytesDone, total: total, unit: .bytes) }
    }

    /// Reads every history file whole; users are grouped and each one's fixes sorted by time.
    static func read(_ o: HistoryOptions, progress: ProgressLine? = nil, gpxUser: String? = nil, gpxStartMs: Int64? = nil) throws -> (History, HistoryStats) {
        let s = try setup(o)
        let builder = HistoryBuilder(fields: s.fields, until: o.untilMs)
        builder.threads = o.threads
        builder.onReject = s.onReject
        builder.progress = report(progress, total: s.totalBytes)
        let history = try mapping(s.writer) { () throws -> History in
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
        let s = try setup(o)
        let reader = SortedHistoryReader(fields: s.fields, until: o.untilMs)
        reader.onReject = s.onReject
        reader.onUser = onUser
        reader.progress = report(progress, total: s.totalBytes)
        try mapping(s.writer) {
            for path in o.historyPaths { try reader.read(path: path) }
            try reader.finish()
        }
        return reader.stats
    }
}
