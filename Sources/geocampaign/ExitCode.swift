/// Exit statuses of formats.md 3.4.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
}

/// Any error a command reports: a message and the exit status it maps to.
struct CLIError: Error {
    var message: String
    var code: ExitCode
    /// Usage errors print the command's usage line after the message.
    var usage: String?

    static func usage(_ message: String, _ usage: String) -> CLIError {
        CLIError(message: message, code: .usage, usage: usage)
    }
    static func noInput(_ path: String, _ why: String = "cannot be opened") -> CLIError {
        CLIError(message: "\(path): \(why)", code: .noInput)
    }
    /// An exit status whose message was already printed (e.g. as diagnostics).
    static func silent(_ code: ExitCode) -> CLIError {
        CLIError(message: "", code: code)
    }
    static func data(_ message: String) -> CLIError {
        CLIError(message: message, code: .dataError)
    }
}
