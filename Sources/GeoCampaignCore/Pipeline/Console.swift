import Foundation

/// Writing to stderr, unbuffered (diagnostics, progress, the summary).
public enum Console {
    /// Writes `s` to stderr at once.
    public static func err(_ s: String) {
        FileHandle.standardError.write(Data(s.utf8))
    }

    /// Whether stderr is a terminal (the progress line draws only then).
    public static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
