#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The header row of a CSV file found ahead of a parallel read: its bytes (without BOM and line
/// end) and the file offset just past it, where the data rows may be split into parts.
struct CSVHeaderScan {
    /// The header row's bytes.
    var bytes: [UInt8]
    /// The offset of the first byte after the header row's line end.
    var end: Int

    /// The first non-blank row of the regular file open as `fd`, when it ends (quotes
    /// respected, as `BlockLineReader` with `quoted` reads it) within the file's first
    /// 1 MiB + 64 KiB and is not over the row limit; else nil (the file is then read on one thread).
    /// - Throws: `HistoryError.readFailed`.
    static func first(fd: Int32, path: String, size: Int) throws -> CSVHeaderScan? {
        let want = min(size, CSVRowParser.maxRowBytes + (64 << 10))
        var head = [UInt8](repeating: 0, count: want)
        var got = 0
        while got < want {
            let r = head.withUnsafeMutableBytes { w in
                guard let base = w.baseAddress else { return 0 }
                return pread(fd, base + got, want - got, off_t(got))
            }
            if r < 0 {
                if errno == EINTR { continue }
                throw HistoryError.readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if r == 0 { break }
            got += r
        }
        var start = got >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0
        var quoted = false
        var i = start
        while i < got {
            let c = head[i]
            if c == 0x22 {
                quoted.toggle()
            } else if c == 0x0A && !quoted {
                var e = i
                if e > start && head[e - 1] == 0x0D { e -= 1 }
                let row = Array(head[start..<e])
                if row.count > CSVRowParser.maxRowBytes { return nil }
                if !row.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return CSVHeaderScan(bytes: row, end: i + 1) }
                start = i + 1
            }
            i += 1
        }
        return nil
    }
}
