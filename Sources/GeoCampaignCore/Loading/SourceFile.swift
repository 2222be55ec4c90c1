/// The text of a loaded YAML file, for quoting source lines in diagnostics, and the sink its
/// diagnostics go to.
final class SourceFile {
    /// The path as it will be printed.
    let path: String
    /// The file's lines without line breaks.
    let lines: [String]
    /// Diagnostics found in this file, in the order they were found.
    private(set) var diagnostics: [Diagnostic] = []
    /// Positions and messages already recorded, so a problem found twice is reported once.
    private var seen: Set<String> = []

    init(path: String, text: String) {
        self.path = path
        var lines: [String] = []
        // "\r\n" is one Character in Swift; "\r" alone is a line break for YAML too.
        for l in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lines.append(String(l))
        }
        self.lines = lines
    }

    /// Records an error at `mark`.
    func error(_ mark: SourceMark, _ message: String) {
        add(.error, mark, message)
    }

    /// Records a warning at `mark`.
    func warning(_ mark: SourceMark, _ message: String) {
        add(.warning, mark, message)
    }

    /// Whether an error was recorded.
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    private func add(_ severity: Diagnostic.Severity, _ mark: SourceMark, _ message: String) {
        let source = mark.line >= 1 && mark.line <= lines.count ? lines[mark.line - 1] : nil
        guard seen.insert("\(mark.line):\(mark.column):\(message)").inserted else { return }
        diagnostics.append(Diagnostic(severity: severity, path: path, line: mark.line, column: mark.column,
                                      message: message, sourceLine: source))
    }

    /// The diagnostics ordered by position (stable for equal positions).
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
    }
}
