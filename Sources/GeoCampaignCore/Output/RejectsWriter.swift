#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes rejected history lines as JSON Lines (formats.md 2.1):
/// `{"line": N, "reason": CODE, "detail": "...", "text": "<the original line>"}`, with invalid
/// UTF-8 in the text replaced by U+FFFD. A file is written aside (`AtomicFile`) and put in
/// place by `close`; dropped without `close`, the file stays as it was.
public final class RejectsWriter {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var atomic: AtomicFile?
    private let includeFile: Bool

    /// Opens `path` for writing (aside); `-` writes to stdout.
    /// - Parameter includeFile: also write `"file": PATH` (useful when several histories are read).
    /// - Throws: `HistoryError.cannotOpen` naming the path.
    public init(path: String, includeFile: Bool = false) throws {
        self.path = path
        self.includeFile = includeFile
        if path == "-" {
            file = fdopen(dup(1), "w")
            if file == nil { throw HistoryError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        } else {
            do { atomic = try AtomicFile(path: path) } catch {
                throw HistoryError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    deinit {
        if let f = file { fclose(f) }
    }

    /// The JSON line (with `\n`) for one rejected line.
    public static func line(for r: RejectedLine, includeFile: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(r.text.count + r.detail.utf8.count + 64)
        out.append(contentsOf: "{\"line\": ".utf8)
        JSONText.appendInt(Int64(r.line), to: &out)
        out.append(contentsOf: ", \"reason\": ".utf8)
        JSONText.appendString(r.reason.rawValue, to: &out)
        out.append(contentsOf: ", \"detail\": ".utf8)
        JSONText.appendString(r.detail, to: &out)
        out.append(contentsOf: ", \"text\": ".utf8)
        JSONText.appendString(bytes: r.text, to: &out)
        if includeFile {
            out.append(contentsOf: ", \"file\": ".utf8)
            JSONText.appendString(r.path, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// Drops a file's lines: the file stays as it was before the run.
    public func discard() {
        atomic?.discard()
        atomic = nil
    }

    /// Writes one rejected line.
    /// - Throws: `HistoryError.writeFailed` naming the rejects path.
    public func write(_ r: RejectedLine) throws {
        let bytes = RejectsWriter.line(for: r, includeFile: includeFile)
        if let atomic {
            do { try atomic.write(bytes) } catch { throw HistoryError.writeFailed(path: path, reason: "\(String(cString: strerror(errno)))") }
            return
        }
        guard let f = file else { throw HistoryError.writeFailed(path: path, reason: "already closed") }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        if written != bytes.count {
            throw HistoryError.writeFailed(path: path, reason: "\(String(cString: strerror(errno)))")
        }
    }

    /// Flushes and closes the file (puts it in place).
    /// - Throws: `HistoryError.writeFailed` when the final flush fails.
    public func close() throws {
        if let a = atomic {
            atomic = nil
            do { try a.commit() } catch { throw HistoryError.writeFailed(path: path, reason: "\(String(cString: strerror(errno)))") }
            return
        }
        guard let f = file else { return }
        file = nil
        if fclose(f) != 0 {
            throw HistoryError.writeFailed(path: path, reason: "\(String(cString: strerror(errno)))")
        }
    }
}
