#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The content of a batch (state.md 1.4): a hash of the bytes of its history files, in order,
/// with each file's length, so that a repeated batch is recognised whatever the files' names.
///
/// Two schemes. Version 2 (this build's, written `v2:` and 32 hex digits) runs eight
/// independent lanes over 64-byte stripes, so that it is bound by memory, not by a chain of
/// multiplies. Version 1 (builds before it, 32 hex digits without a prefix) was one serial
/// chain over 8-byte words; it is computed only to recognise a repeat of a batch that an older
/// build applied (`isSameBatch`).
public enum BatchHash {
    /// What a hash of version 2 starts with, as the state stores it.
    public static let versionPrefix = "v2:"

    /// `v2:` and 32 hex digits (version 2, see the type).
    /// - Throws: `RunError.noInput` naming a file that cannot be read.
    /// - Complexity: O(bytes), at memory speed: each file is read in 256 KiB pieces into one
    ///   buffer, which stays in the core's cache between its copy and its hash (a batch's file
    ///   was just read by the run, so its pages are in memory). Files are not mapped: a file cut
    ///   short by another program while mapped would stop the run with SIGBUS, where a read only
    ///   sees fewer bytes; and a mapped 25 MB batch took a page fault per 64 KiB and its unmapping
    ///   held the process's memory map against the other threads' page faults.
    public static func of(paths: [String]) throws -> String {
        var h = start
        try eachFile(paths) { try Lanes.readAll($0, path: $1, into: &h) }
        return text(h)
    }

    /// Whether a batch whose version 2 hash is `hash` (`of(paths:)`) is the one whose hash the
    /// state stored as `stored`. A stored hash of version 1 (an older build's) is compared
    /// with the version 1 hash of `paths`, computed only then (one more pass over the files).
    public static func isSameBatch(stored: String, hash: String, paths: [String]) throws -> Bool {
        if stored == hash { return true }
        guard isVersion1(stored) else { return false }
        return try version1(paths: paths) == stored
    }

    /// Whether `stored` has the form of a version 1 hash: 32 lowercase hex digits.
    static func isVersion1(_ stored: String) -> Bool {
        stored.utf8.count == 32 && stored.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The start of a hash of files' contents.
    static let start = (UInt64(0x9E37_79B9_7F4A_7C15), UInt64(0xC2B2_AE3D_27D4_EB4F))

    /// A hash as the state stores it.
    static func text(_ h: (UInt64, UInt64)) -> String {
        versionPrefix + CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1)
    }

    /// Adds one file's bytes, held in memory, to `h` (version 2): as `of(paths:)` hashes a file.
    static func add(_ bytes: UnsafeRawBufferPointer, to h: inout (UInt64, UInt64)) {
        var lanes = Lanes(seed: h)
        let whole = bytes.count & ~(Lanes.stripe - 1)
        if whole > 0, let base = bytes.baseAddress { lanes.stripes(base, count: whole) }
        h = lanes.end(tail: UnsafeRawBufferPointer(rebasing: bytes[whole...]), total: UInt64(bytes.count))
    }

    /// Calls `read` with the open descriptor of each file, in order.
    private static func eachFile(_ paths: [String], read: (Int32, String) throws -> Void) throws {
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw RunError.noInput("\(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
            try read(fd, path)
        }
    }

    /// Reads `fd` to its end in pieces of `size` bytes, each given to `body` with the bytes
    /// kept before it; `body` returns how many bytes at the end of what it got it keeps for the
    /// next piece.
    /// - Returns: the file's length.
    private static func readPieces(_ fd: Int32, path: String, keep: Int, size: Int = 1 << 20,
                                   _ body: (UnsafeMutableRawPointer, Int) -> Int) throws -> UInt64 {
        // (8 more: version 1 pads a piece to a whole word in place)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + keep + 8, alignment: 8)
        defer { buffer.deallocate() }
        var total: UInt64 = 0, kept = 0
        while true {
            let n = read(fd, buffer + kept, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw RunError.failure("\(path): read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return total }
            total += UInt64(n)
            let have = kept + n
            kept = body(buffer, have)
            if kept > 0 { memmove(buffer, buffer + (have - kept), kept) }
        }
    }

    // MARK: - Version 2

    /// Eight 64-bit lanes; lane i takes word i of each 64-byte stripe. A lane's step is one
    /// multiply and a xorshift, and the lanes do not wait for each other.
    struct Lanes {
        static let stripe = 64
        private static let k: UInt64 = 0x9FB2_1C65_1E98_DF25
        private var a: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        init(seed h: (UInt64, UInt64)) {
            a = (h.0 ^ 0x243F_6A88_85A3_08D3, h.1 ^ 0x1319_8A2E_0370_7344, h.0 ^ 0xA409_3822_299F_31D0, h.1 ^ 0x082E_FA98_EC4E_6C89,
                 h.0 ^ 0x4528_21E6_38D0_1377, h.1 ^ 0xBE54_66CF_34E9_0C6C, h.0 ^ 0xC0AC_29B7_C97C_50DD, h.1 ^ 0x3F84_D5B5_B547_0917)
        }

        @inline(__always) private static func step(_ a: UInt64, _ p: UnsafeRawPointer, _ i: Int) -> UInt64 {
            let m = (a ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) &* k
            return m ^ (m >> 32)
        }

        /// Takes `count` bytes (whole stripes) at `base`.
        mutating func stripes(_ base: UnsafeRawPointer, count: Int) {
            var (a0, a1, a2, a3, a4, a5, a6, a7) = a
            var p = base
            let end = base + count
            while p < end {
                a0 = Self.step(a0, p, 0); a1 = Self.step(a1, p, 1); a2 = Self.step(a2, p, 2); a3 = Self.step(a3, p, 3)
                a4 = Self.step(a4, p, 4); a5 = Self.step(a5, p, 5); a6 = Self.step(a6, p, 6); a7 = Self.step(a7, p, 7)
                p += Self.stripe
            }
            a = (a0, a1, a2, a3, a4, a5, a6, a7)
        }

        /// The hash of a file of `total` bytes whose last `tail` bytes (less than a stripe)
        /// were not taken: the tail zero-padded to 8-byte words, the lanes and the length
        /// folded into two 64-bit halves, each finished by a full avalanche.
        func end(tail: UnsafeRawBufferPointer, total: UInt64) -> (UInt64, UInt64) {
            var words = [UInt64](repeating: 0, count: 8)
            words.withUnsafeMutableBytes { w in
                if let base = tail.baseAddress, !tail.isEmpty { w.baseAddress!.copyMemory(from: base, byteCount: tail.count) }
            }
            let lanes = [a.0, a.1, a.2, a.3, a.4, a.5, a.6, a.7]
            var h1 = total ^ 0x5851_F42D_4C95_7F2D, h2 = ~total
            for i in 0..<8 {
                h1 = Self.avalanche(h1 ^ lanes[i] ^ UInt64(littleEndian: words[i]))
                h2 = Self.avalanche(h2 &+ lanes[7 - i] &+ UInt64(littleEndian: words[i]))
            }
            return (Self.avalanche(h1 ^ h2), Self.avalanche(h2 &+ h1 &+ total))
        }

        /// MurmurHash3's 64-bit finaliser.
        private static func avalanche(_ x: UInt64) -> UInt64 {
            var x = x
            x ^= x >> 33; x = x &* 0xFF51_AFD7_ED55_8CCD
            x ^= x >> 33; x = x &* 0xC4CE_B9FE_1A85_EC53
            return x ^ (x >> 33)
        }

        /// A file read in pieces: the same hash as `add` of its bytes held whole.
        static func readAll(_ fd: Int32, path: String, into h: inout (UInt64, UInt64)) throws {
            var lanes = Lanes(seed: h)
            var tail: [UInt8] = []
            let total = try readPieces(fd, path: path, keep: stripe, size: 256 << 10) { buffer, have in
                let whole = have & ~(stripe - 1)
                lanes.stripes(buffer, count: whole)
                tail = Array(UnsafeRawBufferPointer(start: buffer + whole, count: have - whole))
                return have - whole
            }
            h = tail.withUnsafeBytes { lanes.end(tail: $0, total: total) }
        }
    }

    // MARK: - Version 1

    /// The version 1 hash of `paths` (32 hex digits): two serial 64-bit multiply-xorshift
    /// chains over 8-byte words (each file's tail zero-padded to a whole word), then the file's
    /// length. Read in pieces, a partial word is kept for the next piece, so the hash is that of
    /// the bytes held whole (`Version1.add`), as the builds before version 2 computed it of a
    /// mapped file.
    static func version1(paths: [String]) throws -> String {
        var h = start
        try eachFile(paths) { fd, path in
            var tail: [UInt8] = []
            let total = try readPieces(fd, path: path, keep: 8) { buffer, have in
                let whole = have & ~7
                Version1.mix(&h, UnsafeRawBufferPointer(start: buffer, count: whole))
                tail = Array(UnsafeRawBufferPointer(start: buffer + whole, count: have - whole))
                return have - whole
            }
            if !tail.isEmpty {
                var word: UInt64 = 0
                withUnsafeMutableBytes(of: &word) { w in tail.withUnsafeBytes { w.copyMemory(from: $0) } }
                withUnsafeBytes(of: word) { Version1.mix(&h, $0) }
            }
            Version1.end(&h, total: total)
        }
        return CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1)
    }

    enum Version1 {
        /// Adds one file's bytes to `h` as version 1 did (also the campaigns' source hash of
        /// builds before version 2).
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
        static func end(_ h: inout (UInt64, UInt64), total: UInt64) {
            h.0 = (h.0 ^ total) &* 0xFF51_AFD7_ED55_8CCD
            h.1 = (h.1 ^ ~total) &* 0xC4CE_B9FE_1A85_EC53
        }

        /// Mixes whole 8-byte words (native byte order, as the words were always read).
        static func mix(_ h: inout (UInt64, UInt64), _ bytes: UnsafeRawBufferPointer) {
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
    }
}
