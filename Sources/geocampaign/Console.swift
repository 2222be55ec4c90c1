import Foundation

/// Writing to stdout, stderr and files, buffered, with errors mapped to CLIError.
enum Console {
    static func err(_ s: String) {
        FileHandle.standardError.write(Data(s.utf8))
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
