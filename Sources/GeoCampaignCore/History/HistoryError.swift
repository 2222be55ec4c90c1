/// A failure that stops reading a history file (as opposed to a rejected line).
public enum HistoryError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be opened (the CLI exits 66).
    case cannotOpen(path: String, reason: String)
    /// Reading the file failed after it was opened.
    case readFailed(path: String, reason: String)
    /// Writing an output file (such as `--rejects`) failed.
    case writeFailed(path: String, reason: String)
    /// A GPX file is not well-formed XML, or not GPX.
    case malformedGPX(path: String, line: Int, column: Int, message: String)
    /// A `--field NAME=SOURCE` argument is not valid.
    case badFieldMapping(String)

    /// `path: error: message`, or `path:line:column: error: message` for GPX syntax errors.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): error: cannot open: \(reason)"
        case let .readFailed(path, reason): return "\(path): error: read failed: \(reason)"
        case let .writeFailed(path, reason): return "\(path): error: write failed: \(reason)"
        case let .malformedGPX(path, line, column, message):
            return "\(path):\(line):\(column): error: malformed GPX: \(message)"
        case let .badFieldMapping(text): return "error: --field \(text)"
        }
    }
}
