/// The text of a loaded YAML file, for quoting source lines in diagnostics, and the sink its
/// diagnostics go to.
final class SourceFile {
    /// The path as it will be printed.
    let path: String
    /// The file's bytes; lines are cut from them only when a diagnostic quotes one.
    private let storage: FileBytes
    private var bytes: UnsafeBufferPointer<UInt8> { storage.buffer }
    /// Byte offset where each line starts, computed on first use.
    private var lineStarts: [Int]?
    /// Lines already cut, so that diagnostics quoting one line share one string (a minified
    /// GeoJSON file is one long line that thousands of diagnostics may quote).
    private var cutLines: [Int: String] = [:]
    /// For long cut lines: their UTF-8 bytes and the byte offset of each Unicode scalar, so that
    /// each diagnostic cuts its window in O(window) (see `Diagnostic.window`).
    private var scalarTables: [Int: (utf8: [UInt8], offsets: [Int32])] = [:]
    /// Diagnostics found in this file, in the order they were found.
    private(set) var diagnostics: [Diagnostic] = []
    /// Positions and messages already recorded, so a problem found twice is reported once.
    private var seen: Set<String> = []

    /// Number of bytes of the file.
    var byteCount: Int { bytes.count }

    /// Adds the file's bytes, as they were parsed, to a hash of files' contents (`BatchHash`).
    func addBytes(to h: inout (UInt64, UInt64)) { BatchHash.add(UnsafeRawBufferPointer(bytes), to: &h) }

    /// A file given by its bytes (invalid UTF-8 is shown as U+FFFD in quoted lines).
    init(path: String, bytes: [UInt8]) {
        self.path = path
        storage = FileBytes(bytes)
    }

    /// A file given by bytes shared with others (a GeoJSON import's document).
    init(path: String, shared bytes: FileBytes) {
        self.path = path
        storage = bytes
    }

    /// A file given by its text.
    convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// Line `n` (1-based) without its line break, or nil when out of range.
    /// - Complexity: O(file size) on the first call (finding line starts), then O(line length).
    func line(_ n: Int) -> String? {
        if let cut = cutLines[n] { return cut }
        let s = starts()
        guard n >= 1 && n <= s.count else { return nil }
        let start = s[n - 1]
        var end = n < s.count ? s[n] : bytes.count
        // Drop the break that ends this line: "\n", "\r\n" or "\r".
        if n < s.count {
            if end > start && bytes[end - 1] == 0x0A { end -= 1 }
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        }
        let cut = String(decoding: bytes[start..<end], as: UTF8.self)
        cutLines[n] = cut
        return cut
    }

    /// Line start offsets, found once by a byte scan.
    private func starts() -> [Int] {
        if let s = lineStarts { return s }
        var s = [0]
        let b = bytes
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c == 0x0A {
                s.append(i + 1)
            } else if c == 0x0D {
                if i + 1 < n && b[i + 1] == 0x0A { i += 1 }
                s.append(i + 1)
            }
            i += 1
        }
        lineStarts = s
        return s
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
        let source = line(mark.line)
        guard seen.insert("\(mark.line):\(mark.column):\(message)").inserted else { return }
        var d = Diagnostic(severity: severity, path: path, line: mark.line, column: mark.column,
                           message: message, sourceLine: source)
        if let source, source.utf8.count > Diagnostic.maxShownLine {
            let table = scalarTable(mark.line, source)
            let count = table.offsets.count
            if count > Diagnostic.maxShownLine {
                let start = max(0, min(mark.column - 1 - Diagnostic.maxShownLine / 2, count - Diagnostic.maxShownLine))
                let end = min(count, start + Diagnostic.maxShownLine)
                let from = Int(table.offsets[start]), to = end < count ? Int(table.offsets[end]) : table.utf8.count
                let text = (start > 0 ? "..." : "") + String(decoding: table.utf8[from..<to], as: UTF8.self) + (end < count ? "..." : "")
                d.window = Diagnostic.ShownWindow(text: text, start: start)
            }
        }
        diagnostics.append(d)
    }

    /// The scalar table of long line `n`, built once.
    /// - Complexity: O(line length) on the first call for a line, then O(1).
    private func scalarTable(_ n: Int, _ text: String) -> (utf8: [UInt8], offsets: [Int32]) {
        if let t = scalarTables[n] { return t }
        let utf8 = Array(text.utf8)
        var offsets: [Int32] = []
        offsets.reserveCapacity(utf8.count)
        for (i, b) in utf8.enumerated() where b & 0xC0 != 0x80 { offsets.append(Int32(i)) }
        scalarTables[n] = (utf8, offsets)
        return (utf8, offsets)
    }

    /// The diagnostics ordered by position (stable for equal positions).
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
    }
}
