#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The content of a batch (state.md 1.4): a hash of the bytes of its history files, in order,
/// with each file's length, so that a repeated batch is recognised whatever the files' names.
public enum BatchHash {
    /// 32 hex digits: two 64-bit multiply-xorshift hashes over 8-byte words.
    /// - Throws: `RunError.noInput` naming a file that cannot be read.
    /// - Complexity: O(bytes), about 1 GB/s.
    public static func of(paths: [String]) throws -> String {
        var h1: UInt64 = 0x9E37_79B9_7F4A_7C15, h2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + 8, alignment: 8)
        defer { buffer.deallocate() }
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw RunError.noInput("\(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var total: UInt64 = 0
            while true {
                let n = read(fd, buffer, size)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw RunError.failure("\(path): read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }
                total += UInt64(n)
                // Zero-pad the tail to a whole word; the total length goes in at the end.
                let words = (n + 7) / 8
                memset(buffer + n, 0, words * 8 - n)
                let p = buffer.assumingMemoryBound(to: UInt64.self)
                for i in 0..<words {
                    let w = p[i]
                    h1 = (h1 ^ w) &* 0xFF51_AFD7_ED55_8CCD
                    h1 ^= h1 >> 32
                    h2 = (h2 &+ w) &* 0xC4CE_B9FE_1A85_EC53
                    h2 ^= h2 >> 29
                }
            }
            h1 = (h1 ^ total) &* 0xFF51_AFD7_ED55_8CCD
            h2 = (h2 ^ ~total) &* 0xC4CE_B9FE_1A85_EC53
        }
        return CampaignFingerprint.hex(h1) + CampaignFingerprint.hex(h2)
    }
}
