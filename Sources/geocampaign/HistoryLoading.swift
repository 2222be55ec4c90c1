import Foundation
import GeoCampaignCore

/// Reads the histories named by the options, writing rejects as they come.
enum HistoryLoading {
    static func read(_ o: HistoryOptions, gpxUser: String? = nil, gpxStartMs: Int64? = nil) throws -> (History, HistoryStats) {
        var reader = HistoryReader(fieldMap: o.fieldMap)
        let rejectsSink = try o.rejects.map { try OutputSink(path: $0) }
        var firstReject: RejectedLine?
        var writeError: Error?
        let onReject: (RejectedLine) -> Void = { r in
            if firstReject == nil { firstReject = r }
            guard let sink = rejectsSink, writeError == nil else { return }
            var bytes: [UInt8] = []
            RejectsWriter.append(r, to: &bytes)
            do { try sink.write(bytes) } catch { writeError = error }
        }
        for path in o.historyPaths {
            if path != "-" && !FileManager.default.isReadableFile(atPath: path) {
                throw CLIError.noInput(path, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
            }
            do {
                if path.lowercased().hasSuffix(".gpx") {
                    let user = gpxUser ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                    try reader.readGPX(path: path, user: user, startMs: gpxStartMs ?? 946_684_800_000, onReject: onReject)
                } else {
                    try reader.readJSONLines(path: path, onReject: onReject)
                }
            } catch let e as CLIError {
                throw e
            } catch {
                throw CLIError.noInput(path, "\(error)")
            }
        }
        try rejectsSink?.close()
        if let writeError { throw writeError }
        if o.strict, let r = firstReject {
            throw CLIError.data("\(r.file):\(r.line): rejected (\(r.reason.rawValue)): \(r.detail); --strict makes any rejected line fatal")
        }
        return reader.finish()
    }
}
