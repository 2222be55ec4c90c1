import Foundation
import GeoCampaignCore

/// Reads the histories named by the options, writing rejects as they come.
enum HistoryLoading {
    private struct StrictStop: Error {
        var reject: RejectedLine
    }

    static func read(_ o: HistoryOptions, gpxUser: String? = nil, gpxStartMs: Int64? = nil) throws -> (History, HistoryStats) {
        var fields = HistoryFields()
        for (name, source) in o.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try fields.apply("\(name)=\(source)") } catch { throw CLIError(message: "--field \(name)=\(source): \(error)", code: .usage) }
        }
        let builder = HistoryBuilder(fields: fields, until: o.untilMs)
        builder.threads = o.threads
        let writer: RejectsWriter?
        do {
            writer = try o.rejects.map { try RejectsWriter(path: $0) }
        } catch {
            throw CLIError(message: "\(o.rejects ?? ""): cannot be written: \(error)", code: .failure)
        }
        let strict = o.strict
        builder.onReject = { r in
            try writer?.write(r)
            if strict { throw StrictStop(reject: r) }
        }
        for path in o.historyPaths {
            do {
                try builder.read(path: path, gpxUser: gpxUser, gpxStart: gpxStartMs ?? GPXReader.defaultStart)
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
            }
        }
        try writer?.close()
        let history = builder.finish()
        return (history, history.stats)
    }
}
