/// The format of a history file: JSON Lines (formats.md 2.1), CSV (docs/history-format.md) or
/// GPX (formats.md 2.2).
public enum HistoryFormat: String, Sendable, CaseIterable {
    /// One JSON object per line.
    case jsonLines = "jsonl"
    /// A header row, then one fix per row (RFC 4180 quoting, `,` or `;` separators).
    case csv
    /// One user's track.
    case gpx

    /// The format of `path` by its extension, any case: `.gpx` is GPX, `.csv` CSV, anything else
    /// (and `-`, standard input) JSON Lines.
    public static func of(path: String) -> HistoryFormat {
        if path == "-" { return .jsonLines }
        let lower = path.lowercased()
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".csv") { return .csv }
        return .jsonLines
    }

    /// The format `path` is read in: `forced` when set (`--history-format`), else by extension.
    public static func of(path: String, forced: HistoryFormat?) -> HistoryFormat {
        forced ?? of(path: path)
    }
}
