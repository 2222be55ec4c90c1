import Foundation

/// The first rejected line of each reason, kept while a history is read, so that a history of
/// which no line was accepted can be explained: the most common reason, the keys the lines do
/// have, a GPX or CSV file given where JSON Lines was expected (issue 10 item 18, docs/cli.md).
public final class RejectDigest: @unchecked Sendable {
    private let lock = NSLock()
    private var first: [RejectReason: RejectedLine] = [:]

    /// Creates an empty digest.
    public init() {}

    /// Keeps `r` when it is the first of its reason.
    public func note(_ r: RejectedLine) {
        lock.lock()
        if first[r.reason] == nil { first[r.reason] = r }
        lock.unlock()
    }

    /// The message of a read in which no line was accepted, or nil when some line was, or no line
    /// was rejected (an empty history is no error).
    /// - Parameters:
    ///   - stats: the read's counters.
    ///   - paths: the history files as given (`-` for standard input).
    ///   - fields: the keys the canonical fields were read from.
    public func noFixMessage(stats: HistoryStats, paths: [String], fields: HistoryFields = HistoryFields()) -> String? {
        guard stats.fixesAccepted == 0, stats.totalRejected > 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        // The most common reason; ties go to the reason of higher priority.
        let top = stats.rejectsByReason.max { a, b in a.count < b.count || (a.count == b.count && a.reason > b.reason) }
        guard let top, let example = first[top.reason] else { return nil }
        let files = paths.count == 1 ? (paths[0] == "-" ? "standard input" : paths[0]) : "the histories"
        var m = "\(files): no line was accepted: all \(stats.totalRejected) rejected, most as \(top.reason.rawValue) (\(top.count)), e.g. line \(example.line): \(example.detail)"
        if let hint = hint(top.reason, example, fields: fields) { m += "; " + hint }
        return m
    }

    private func hint(_ reason: RejectReason, _ example: RejectedLine, fields: HistoryFields) -> String? {
        let text = String(decoding: example.text.prefix(4096), as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
        let where_ = example.path == "-" ? "standard input" : "this file"
        if reason == .invalidJSON || reason == .badEncoding {
            if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<gpx") || trimmed.hasPrefix("<trk") {
                return "\(where_) holds GPX (XML), which is read from a file whose name ends in .gpx, e.g. --history track.gpx"
            }
            if !trimmed.hasPrefix("{"), trimmed.contains(",") || trimmed.contains(";") {
                return "\(where_) looks like CSV: name it *.csv or add --history-format csv"
            }
        }
        guard reason == .missingField, let keys = Self.keys(of: example.text) else { return nil }
        let listed = keys.sorted().joined(separator: ", ")
        let missing = zip(HistoryFields.canonicalNames, fields.sources).filter { !keys.contains($0.1) && $0.0 != "accuracy" }
        let suggestions = missing.compactMap { name, _ in Self.likelySource(for: name, among: keys).map { "--field \(name)=\($0)" } }
        let use = suggestions.isEmpty ? "" : " (use \(suggestions.joined(separator: " "))?)"
        return "the lines have the keys \(listed)\(use)"
    }

    /// The keys of a JSON object line, or nil when it is not one.
    static func keys(of text: [UInt8]) -> Set<String>? {
        guard let o = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any] else { return nil }
        return Set(o.keys)
    }

    /// The key most likely to hold canonical field `name`: a known alias, else a key that starts
    /// with or contains the name.
    static func likelySource(for name: String, among keys: Set<String>) -> String? {
        let aliases: [String: [String]] = [
            "user": ["user_id", "userId", "userid", "uid", "device", "device_id", "deviceId", "advertising_id", "ad_id", "maid", "idfa", "gaid", "id"],
            "ts": ["timestamp", "time", "t", "datetime", "date", "recorded_at", "created_at", "epoch", "time_utc", "utc"],
            "lat": ["latitude", "Latitude", "LAT", "y"],
            "lon": ["lng", "long", "longitude", "Longitude", "LON", "LNG", "x"],
        ]
        for a in aliases[name] ?? [] where keys.contains(a) { return a }
        let lower = keys.sorted().map { ($0, $0.lowercased()) }
        return lower.first { $0.1.hasPrefix(name) }?.0 ?? lower.first { $0.1.contains(name) }?.0
    }
}
