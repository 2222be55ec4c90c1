/// An error of a run of the pipeline (loading, reading, writing, state): a message and the exit
/// status of formats.md 3.4 it maps to. The CLI prints `error: MESSAGE` and exits with `status`.
public enum RunError: Error, Equatable, CustomStringConvertible {
    /// Any other failure (a file that cannot be written, a failed write): exit 1.
    case failure(String)
    /// A bad option value found while running (e.g. `--field`): exit 64, without a usage line.
    case usage(String)
    /// Bad data (a rejected line under `--strict`, a campaign with errors, a final state): exit 65.
    case data(String)
    /// An input that cannot be opened: exit 66.
    case noInput(String)
    /// An exit status whose message was already printed (e.g. as diagnostics).
    case reported(status: Int32)

    /// The process exit status.
    public var status: Int32 {
        switch self {
        case .failure: return 1
        case .usage: return 64
        case .data: return 65
        case .noInput: return 66
        case .reported(let s): return s
        }
    }

    /// The message, empty when it was already printed.
    public var message: String {
        switch self {
        case .failure(let m), .usage(let m), .data(let m), .noInput(let m): return m
        case .reported: return ""
        }
    }

    public var description: String { message }

    /// `PATH: cannot be opened` (exit 66).
    static func noInput(_ path: String, _ why: String) -> RunError { .noInput("\(path): \(why)") }
}
