#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor in large blocks and hands out its lines in place, without copying:
/// lines end at `\n`; a `\r` before it is dropped; a UTF-8 BOM at the start of the first line is
/// dropped; a last line without `\n` is still a line. A line longer than the buffer grows it.
///
/// With a byte range, only that part of a regular file is read (with `pread`, so several readers
/// may share one descriptor); the BOM rule then applies only when the range starts at offset 0.
final class BlockLineReader {
    /// Default block size: 4 MiB.
    static let blockSize = 4 << 20

    private let fd: Int32
    private let path: String
    private var buf: UnsafeMutablePointer<UInt8>
    private var cap: Int
    /// The next file offset to read with `pread`, or nil to `read` the descriptor sequentially.
    private var offset: Int?
    /// With a range: the offset where reading stops.
    private let end: Int
    /// Called with the number of bytes each successful read returned.
    var onBytes: ((Int) -> Void)?

    init(fd: Int32, path: String, blockSize: Int = BlockLineReader.blockSize) {
        self.fd = fd
        self.path = path
        cap = max(16, blockSize)
        buf = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
        offset = nil
        end = Int.max
    }

    /// A reader of the bytes `range` of the regular file open as `fd`.
    init(fd: Int32, path: String, range: Range<Int>, blockSize: Int = BlockLineReader.blockSize) {
        self.fd = fd
        self.path = path
        cap = max(16, min(blockSize, range.count + 16))
        buf = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
        offset = range.lowerBound
        end = range.upperBound
    }

    deinit { buf.deallocate() }

    /// Calls `body(lineNumber, bytes, count)` for every line of the input (1-based numbers).
    /// The bytes are valid only during the call.
    func forEachLine(_ body: (Int, UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var filled = 0
        var lineNo = 0
        var eof = false
        var first = offset.map { $0 == 0 } ?? true
        while true {
            if filled == cap {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: cap * 2)
                bigger.update(from: buf, count: filled)
                buf.deallocate()
                buf = bigger
                cap *= 2
            }
            let r: Int
            if let at = offset {
                let want = min(cap - filled, end - at)
                r = want > 0 ? pread(fd, buf + filled, want, off_t(at)) : 0
            } else {
                r = read(fd, buf + filled, cap - filled)
            }
            if r < 0 {
                if errno == EINTR { continue }
                throw HistoryError.readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if r == 0 {
                eof = true
            } else {
                filled += r
                if let at = offset { offset = at + r }
                onBytes?(r)
            }
            var start = 0
            // Scan only the newly read bytes plus the pending partial line.
            while start < filled {
                guard let hit = memchr(buf + start, 0x0A, filled - start) else { break }
                let nl = UnsafeMutablePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buf
                lineNo += 1
                try emit(lineNo, start, nl, &first, body)
                start = nl + 1
            }
            if eof {
                if start < filled {
                    lineNo += 1
                    try emit(lineNo, start, filled, &first, body)
                }
                return
            }
            if start > 0 {
                let rest = filled - start
                if rest > 0 { memmove(buf, buf + start, rest) }
                filled = rest
            }
        }
    }

    @inline(__always)
    private func emit(_ lineNo: Int, _ s0: Int, _ e0: Int, _ first: inout Bool,
                      _ body: (Int, UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var s = s0, e = e0
        if e > s && buf[e - 1] == 0x0D { e -= 1 }
        if first {
            first = false
            if e - s >= 3 && buf[s] == 0xEF && buf[s + 1] == 0xBB && buf[s + 2] == 0xBF { s += 3 }
        }
        try body(lineNo, UnsafePointer(buf + s), e - s)
    }
}
