#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor in large blocks and hands out its lines in place, without copying:
/// lines end at `\n`; a `\r` before it is dropped; a UTF-8 BOM at the start of the first line is
/// dropped; a last line without `\n` is still a line.
///
/// A line longer than `limit` bytes (terminator excluded) is not kept: once it is known to be too
/// long, the reader keeps its first `prefixBytes` bytes, skips (and counts) the rest up to the next
/// `\n` and hands the prefix and the full length to `onTooLong`. Memory stays at the block size
/// (at least `limit` + 2 bytes) whatever the length of a line.
///
/// With `quoted` (CSV, RFC 4180), a `\n` inside double quotes does not end the line: a row may span
/// several lines; it is handed out whole (its inner line ends kept as they are) with the number of
/// its first line. A row that turns out too long is skipped to the next `\n`, quotes or not.
///
/// With a byte range, only that part of a regular file is read (with `pread`, so several readers
/// may share one descriptor); the BOM rule then applies only when the range starts at offset 0.
final class BlockLineReader {
    /// Default block size: 4 MiB.
    static let blockSize = 4 << 20
    /// At most this many bytes are read at once (256 KiB): the lines are parsed while the bytes
    /// the kernel just copied are still in the core's cache (1 MiB of L2 on the bench machine),
    /// and the block's pages beyond what the longest line needs are never touched. The block
    /// still holds a line of up to its size whole.
    static let readSize = 256 << 10
    /// How many bytes of a too-long line are kept for its reject.
    static let prefixBytes = 1024

    private let fd: Int32
    private let path: String
    private var buf: UnsafeMutablePointer<UInt8>
    private var cap: Int
    /// The next file offset to read with `pread`, or nil to `read` the descriptor sequentially.
    private var offset: Int?
    /// With a range: the offset where reading stops.
    private var end: Int
    /// Lines (rows) longer than this many bytes are too long.
    let limit: Int
    /// Whether a `\n` between double quotes continues the line (CSV rows).
    let quoted: Bool
    /// Called with the number of bytes each successful read returned.
    var onBytes: ((Int) -> Void)?
    /// Called for every too-long line with its number, its first bytes (valid only during the
    /// call), their count and the length of the whole line (terminator excluded). When nil,
    /// too-long lines are skipped without a word.
    var onTooLong: ((Int, UnsafePointer<UInt8>, Int, Int) throws -> Void)?
    /// The size of the buffer now (it grows only while a line within the limit does not fit).
    var bufferCapacity: Int { cap }
    /// Physical lines read so far (the lines inside quoted rows included).
    private(set) var lines = 0
    /// Whether the input ended in the middle of a row: no line end after its last bytes. For a
    /// range that ends just after a line end (as the parts of a parallel read do), that is a row
    /// whose quotes were open at that line end, so the next range does not start a row.
    private(set) var endedMidRow = false

    /// A reader of the descriptor `fd` from where it stands to its end.
    /// - Throws: `HistoryError.readFailed` naming `path` when the buffer cannot be allocated.
    init(fd: Int32, path: String, blockSize: Int = BlockLineReader.blockSize,
         limit: Int = JSONLineParser.maxLineBytes, quoted: Bool = false) throws {
        self.fd = fd
        self.path = path
        self.limit = limit
        self.quoted = quoted
        cap = max(16, blockSize)
        buf = try BlockLineReader.allocate(cap, path: path)
        offset = nil
        end = Int.max
    }

    /// A reader of the bytes `range` of the regular file open as `fd`.
    /// - Throws: `HistoryError.readFailed` naming `path` when the buffer cannot be allocated.
    init(fd: Int32, path: String, range: Range<Int>, blockSize: Int = BlockLineReader.blockSize,
         limit: Int = JSONLineParser.maxLineBytes, quoted: Bool = false) throws {
        self.fd = fd
        self.path = path
        self.limit = limit
        self.quoted = quoted
        cap = max(16, min(blockSize, range.count + 16))
        buf = try BlockLineReader.allocate(cap, path: path)
        offset = range.lowerBound
        end = range.upperBound
    }

    deinit { free(buf) }

    /// Makes the reader read the bytes `range` of the same regular file next, as a reader made
    /// for that range would (line numbers from 1, the BOM rule only at offset 0), keeping its
    /// buffer: a thread that reads several parts of a file touches one buffer's pages, not one
    /// buffer's per part.
    /// - Throws: `HistoryError.readFailed` naming the path when a larger buffer cannot be allocated.
    func restart(range: Range<Int>, blockSize: Int = BlockLineReader.blockSize) throws {
        let wanted = max(16, min(blockSize, range.count + 16))
        if cap < wanted {
            let bigger = try BlockLineReader.allocate(wanted, path: path)
            free(buf)
            buf = bigger
            cap = wanted
        }
        offset = range.lowerBound
        end = range.upperBound
        lines = 0
        endedMidRow = false
    }

    /// A buffer of `n` bytes, to be freed with `free`. One of 2 MiB or more is aligned to 2 MiB
    /// and may use huge pages: its first fill then costs a few page faults, not one per 4 KiB.
    /// - Throws: `HistoryError.readFailed` naming `path` when there is no memory for it.
    private static func allocate(_ n: Int, path: String) throws -> UnsafeMutablePointer<UInt8> {
        let huge = 2 << 20
        var p: UnsafeMutableRawPointer?
        guard posix_memalign(&p, n >= huge ? huge : 16, n) == 0, let p else {
            throw HistoryError.readFailed(path: path, reason: "out of memory: cannot allocate a read buffer of \(n) bytes")
        }
        #if os(Linux)
        if n >= huge { _ = madvise(p, n / huge * huge, Int32(MADV_HUGEPAGE)) }
        #endif
        return p.bindMemory(to: UInt8.self, capacity: n)
    }

    /// The state of a too-long line being skipped.
    private struct Skip {
        var line: Int
        var prefix: [UInt8]
        var length: Int
        var last: UInt8

        /// Adds to the prefix from `p[0..<n]`, up to `prefixBytes`.
        mutating func keep(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) {
            let room = min(n, BlockLineReader.prefixBytes - prefix.count)
            if room > 0 { prefix.append(contentsOf: UnsafeBufferPointer(start: p, count: room)) }
        }
    }

    /// Calls `body(lineNumber, bytes, count)` for every line of the input (1-based numbers) that
    /// is not too long. The bytes are valid only during the call.
    func forEachLine(_ body: (Int, UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var filled = 0
        var eof = false
        var first = offset.map { $0 == 0 } ?? true
        var skip: Skip?
        // The pending row: quotes seen up to `scan` leave it inside quotes; lines it spans so far.
        var inQuotes = false
        var scan = 0
        var inner = 0
        while true {
            if filled == cap {
                let bigger = try BlockLineReader.allocate(cap * 2, path: path)
                bigger.update(from: buf, count: filled)
                free(buf)
                buf = bigger
                cap *= 2
            }
            let r: Int
            if let at = offset {
                let want = min(cap - filled, end - at, BlockLineReader.readSize)
                r = want > 0 ? pread(fd, buf + filled, want, off_t(at)) : 0
            } else {
                r = read(fd, buf + filled, min(cap - filled, BlockLineReader.readSize))
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
            if var s = skip {
                // Drop everything up to the next line end (the first bytes kept for the reject).
                if let hit = memchr(buf, 0x0A, filled) {
                    let nl = UnsafeMutablePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buf
                    s.keep(buf, nl)
                    let last = nl > 0 ? buf[nl - 1] : s.last
                    s.length += nl - (last == 0x0D ? 1 : 0)
                    try finishSkip(s, inner)
                    skip = nil
                    inner = 0
                    start = nl + 1
                    scan = start
                    inQuotes = false
                } else {
                    s.keep(buf, filled)
                    if filled > 0 { s.last = buf[filled - 1] }
                    s.length += filled
                    filled = 0
                    skip = s
                    if eof {
                        endedMidRow = true
                        // The last line has no line end: a final \r is dropped, as `emit` drops it.
                        if s.last == 0x0D { s.length -= 1 }
                        try finishSkip(s, inner)
                        return
                    }
                    continue
                }
            }
            // Scan only the newly read bytes plus the pending partial line.
            while scan < filled {
                guard let hit = memchr(buf + scan, 0x0A, filled - scan) else {
                    if quoted && BlockLineReader.quoteCount(buf + scan, filled - scan) & 1 == 1 { inQuotes.toggle() }
                    scan = filled
                    break
                }
                let nl = UnsafeMutablePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buf
                if quoted && BlockLineReader.quoteCount(buf + scan, nl - scan) & 1 == 1 { inQuotes.toggle() }
                // The first line end past the limit ends the row, inside quotes or not: the row
                // is too long (or just fits).
                if inQuotes && nl - start <= limit {
                    inner += 1
                    scan = nl + 1
                    continue
                }
                try emit(lines + 1, start, nl, &first, tooLong: inQuotes, body)
                inQuotes = false
                lines += inner + 1
                inner = 0
                start = nl + 1
                scan = start
            }
            if eof {
                if start < filled {
                    endedMidRow = true
                    try emit(lines + 1, start, filled, &first, tooLong: false, body)
                    lines += inner + 1
                }
                return
            }
            let rest = filled - start
            if rest > limit + 1 {
                // Too long whatever comes next (any line end in it is inside quotes and within
                // the limit): keep its first bytes, drop the rest up to the next line end.
                var s = start
                if first && rest >= 3 && buf[s] == 0xEF && buf[s + 1] == 0xBB && buf[s + 2] == 0xBF { s += 3 }
                first = false
                let keep = min(filled - s, BlockLineReader.prefixBytes)
                skip = Skip(line: lines + 1, prefix: Array(UnsafeBufferPointer(start: buf + s, count: keep)),
                            length: filled - s, last: buf[filled - 1])
                filled = 0
                scan = 0
                continue
            }
            if start > 0 {
                if rest > 0 { memmove(buf, buf + start, rest) }
                filled = rest
                scan -= start
            }
        }
    }

    /// Hands a skipped line to `onTooLong` and counts its lines.
    private func finishSkip(_ s: Skip, _ inner: Int) throws {
        lines += inner + 1
        try s.prefix.withUnsafeBufferPointer { p in
            if let base = p.baseAddress {
                try onTooLong?(s.line, base, BlockLineReader.prefixLength(base, s.length), s.length)
            }
        }
    }

    @inline(__always)
    private func emit(_ lineNo: Int, _ s0: Int, _ e0: Int, _ first: inout Bool, tooLong: Bool,
                      _ body: (Int, UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var s = s0, e = e0
        if e > s && buf[e - 1] == 0x0D { e -= 1 }
        if first {
            first = false
            if e - s >= 3 && buf[s] == 0xEF && buf[s + 1] == 0xBB && buf[s + 2] == 0xBF { s += 3 }
        }
        if tooLong || e - s > limit {
            let keep = BlockLineReader.prefixLength(buf + s, e - s)
            try onTooLong?(lineNo, UnsafePointer(buf + s), keep, e - s)
            return
        }
        try body(lineNo, UnsafePointer(buf + s), e - s)
    }

    /// The number of double quotes in `p[0..<n]`.
    @inline(__always)
    static func quoteCount(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        guard var hit = memchr(p, 0x22, n) else { return 0 }
        var count = 0
        let stop = p + n
        while true {
            count += 1
            let next = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) + 1
            guard next < stop, let h = memchr(next, 0x22, stop - next) else { return count }
            hit = h
        }
    }

    /// How many of the first bytes of a line of `n` bytes to keep: at most `prefixBytes`, cut
    /// before a UTF-8 sequence that would be split.
    static func prefixLength(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        if n <= prefixBytes { return n }
        var k = prefixBytes
        // Back off over continuation bytes to the start of the sequence they belong to.
        var back = 0
        while back < 3 && k - back > 0 && p[k - back - 1] & 0xC0 == 0x80 { back += 1 }
        let lead = k - back - 1
        if lead >= 0 {
            let b = p[lead]
            let need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            if need > back + 1 && b >= 0xC0 { k = lead }
        }
        return k
    }
}
