/// How the canonical history fields are read: the JSON keys or CSV columns they come from
/// (`--field NAME=SOURCE`), the file format when it is not told by the extension
/// (`--history-format`), and what a numeric timestamp counts (`--ts-format`).
public struct HistoryFields: Sendable, Equatable {
    /// The canonical field names, in reject priority order.
    public static let canonicalNames = ["user", "ts", "lat", "lon", "accuracy"]

    /// Key holding the user id (canonical `user`).
    public var user: String = "user"
    /// Key holding the timestamp (canonical `ts`).
    public var ts: String = "ts"
    /// Key holding the latitude (canonical `lat`).
    public var lat: String = "lat"
    /// Key holding the longitude (canonical `lon`).
    public var lon: String = "lon"
    /// Key holding the accuracy (canonical `accuracy`).
    public var accuracy: String = "accuracy"

    /// The format every history file is read in; nil: by its extension (`HistoryFormat.of(path:)`).
    public var format: HistoryFormat?
    /// The unit of numeric timestamps.
    public var epochUnit: EpochUnit = .seconds

    /// The default mapping: every field read from its canonical key.
    public init() {}

    /// The source keys in canonical order user, ts, lat, lon, accuracy.
    public var sources: [String] { [user, ts, lat, lon, accuracy] }

    /// Applies one `NAME=SOURCE` argument, for example `user=device_id`.
    /// - Throws: `HistoryError.badFieldMapping` when NAME is not a canonical field or SOURCE is empty.
    public mutating func apply(_ argument: String) throws {
        guard let eq = argument.firstIndex(of: "=") else {
            throw HistoryError.badFieldMapping("'\(argument)' is not NAME=SOURCE")
        }
        let name = String(argument[..<eq])
        let source = String(argument[argument.index(after: eq)...])
        guard !source.isEmpty else {
            throw HistoryError.badFieldMapping("'\(argument)': SOURCE is empty")
        }
        switch name {
        case "user": user = source
        case "ts": ts = source
        case "lat": lat = source
        case "lon": lon = source
        case "accuracy": accuracy = source
        default:
            throw HistoryError.badFieldMapping(
                "'\(argument)': unknown field '\(name)' (expected user, ts, lat, lon or accuracy)")
        }
    }
}
