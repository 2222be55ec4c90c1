/// One problem found in a campaign file (formats.md 1.6).
///
/// `description` prints `path:line:column: error: message`, then the source line and a caret
/// under the column. A diagnostic about a whole file (one that cannot be opened) has line 0 and
/// prints `path: error: message` alone.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Equatable {
        /// The file is invalid (`validate` exits 65).
        case error
        /// Worth a look; the file still loads.
        case warning
    }

    /// Longest source line printed whole; longer ones are cut around the column.
    public static let maxShownLine = 160

    /// Error or warning.
    public var severity: Severity
    /// The file, as given on the command line or as the folder path joined with the file name.
    public var path: String
    /// 1-based line; 0 when the problem concerns the whole file.
    public var line: Int
    /// 1-based column in characters; 0 when the problem concerns the whole file.
    public var column: Int
    /// What is wrong and how to fix it.
    public var message: String
    /// The text of the offending line, without its line break; nil when there is none.
    public var sourceLine: String?
    /// For a long source line, the part shown (with "..." where cut) and the 0-based scalar index
    /// where it starts, cut once by the `SourceFile` that knows the line; nil: cut here if needed.
    var window: ShownWindow?

    /// A window of a long source line.
    struct ShownWindow: Sendable, Equatable {
        var text: String
        var start: Int
    }

    /// Creates a diagnostic.
    public init(severity: Severity, path: String, line: Int, column: Int, message: String, sourceLine: String? = nil) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `path:line:column: severity: message`, the source line and a caret line.
    public var description: String {
        guard line > 0 else { return "\(path): \(severity.rawValue): \(message)" }
        var text = "\(path):\(line):\(column): \(severity.rawValue): \(message)"
        if let full = sourceLine {
            // A very long line (minified GeoJSON) is cut to a window around the column.
            var source = full
            var col = column
            if let w = window {
                source = w.text
                col = column - w.start + (w.start > 0 ? 3 : 0)
            } else if full.utf8.count > Self.maxShownLine, case let scalars = Array(full.unicodeScalars), scalars.count > Self.maxShownLine {
                let start = max(0, min(column - 1 - Self.maxShownLine / 2, scalars.count - Self.maxShownLine))
                let end = min(scalars.count, start + Self.maxShownLine)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[start..<end])
                source = (start > 0 ? "..." : "") + String(view) + (end < scalars.count ? "..." : "")
                col = column - start + (start > 0 ? 3 : 0)
            }
            text += "\n" + source + "\n"
            var caret = ""
            var i = 1
            // Columns count Unicode scalars; combining marks take no room on screen.
            for u in source.unicodeScalars where i < col {
                let category = u.properties.generalCategory
                if u == "\t" {
                    caret.append("\t")
                } else if category != .nonspacingMark && category != .enclosingMark {
                    caret.append(" ")
                }
                i += 1
            }
            while i < col {
                caret.append(" ")
                i += 1
            }
            text += caret + "^"
        }
        return text
    }
}
