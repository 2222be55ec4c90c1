#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The content of a batch (state.md 1.4): a hash of the bytes of its history files, in order,
/// with each file's length, so that a repeated batch is recognised whatever the files' names.
public enum BatchHash {
    /// 32 hex digits: two 64-bit multiply-xorshift hashes over 8-byte words (each file's tail
    /// zero-padded to a whole word), then the file's length.
    /// - Throws: `RunError.noInput` naming a file that cannot be read.
    /// - Complexity: O(bytes), about 1 GB/s. A regular file is mapped, not copied: a batch's
    ///   file was just read by the run, so its pages are in memory.
    public static func of(paths: [String]) throws -> String {
        var h = start
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw RunError.noInput("\(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var st = stat()
            if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0,
               let map = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED {
                defer { munmap(map, Int(st.st_size)) }
                _ = madvise(map, Int(st.st_size), MADV_SEQUENTIAL)
                add(UnsafeRawBufferPointer(start: map, count: Int(st.st_size)), to: &h)
            } else {
                let total = try readAll(fd, path: path, into: &h)
                end(&h, total: total)
            }
        }
        return CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1)
    }

    /// The start of a hash of files' contents.
    static let start = (UInt64(0x9E37_79B9_7F4A_7C15), UInt64(0xC2B2_AE3D_27D4_EB4F))

    /// Adds one file's bytes, held in memory, to `h`: as `of(paths:)` hashes a file.
    static func add(_ bytes: UnsafeRawBufferPointer, to h: inout (UInt64, UInt64)) {
        let whole = bytes.count / 8
        mix(&h, UnsafeRawBufferPointer(rebasing: bytes[0..<whole * 8]))
        let rest = bytes.count - whole * 8
        if rest > 0, let base = bytes.baseAddress {
            var tail: UInt64 = 0
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + whole * 8, count: rest)) }
            withUnsafeBytes(of: tail) { mix(&h, $0) }
        }
        end(&h, total: UInt64(bytes.count))
    }

    /// Ends a file of `total` bytes.
    private static func end(_ h: inout (UInt64, UInt64), total: UInt64) {
        h.0 = (h.0 ^ total) &* 0xFF51_AFD7_ED55_8CCD
        h.1 = (h.1 ^ ~total) &* 0xC4CE_B9FE_1A85_EC53
    }

    /// Mixes whole 8-byte words (native byte order, as the words were always read).
    private static func mix(_ h: inout (UInt64, UInt64), _ bytes: UnsafeRawBufferPointer) {
        var h1 = h.0, h2 = h.1
        let n = bytes.count / 8
        guard n > 0, let base = bytes.baseAddress else { return }
        for i in 0..<n {
            let w = base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            h1 = (h1 ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h1 ^= h1 >> 32
            h2 = (h2 &+ w) &* 0xC4CE_B9FE_1A85_EC53
            h2 ^= h2 >> 29
        }
        h = (h1, h2)
    }

    /// A file that cannot be mapped (empty, or not a regular file), read in 1 MiB pieces, each
    /// zero-padded to a whole word; returns its length.
    private static func readAll(_ fd: Int32, path: String, into h: inout (UInt64, UInt64)) throws -> UInt64 {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + 8, alignment: 8)
        defer { buffer.deallocate() }
        var total: UInt64 = 0
        while true {
            let n = read(fd, buffer, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw RunError.failure("\(path): read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return total }
            total += UInt64(n)
            let words = (n + 7) / 8
            memset(buffer + n, 0, words * 8 - n)
            mix(&h, UnsafeRawBufferPointer(start: buffer, count: words * 8))
        }
    }
}
