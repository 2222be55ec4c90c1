#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interns user ids: maps the UTF-8 bytes of an id to a dense index, storing each distinct id once.
/// Lookups hash the bytes directly; no `String` is created for a known id.
final class UserInterner {
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var starts: [Int] = [0]
    @exclusivity(unchecked) private var hashes: [UInt64] = []
    @exclusivity(unchecked) private var table: [Int32]
    @exclusivity(unchecked) private var mask: Int
    @exclusivity(unchecked) private var last: Int32 = -1

    init() {
        table = Array(repeating: -1, count: 1024)
        mask = 1023
    }

    /// The number of distinct ids.
    var count: Int { hashes.count }

    @inline(__always)
    private static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(n)
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i + 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
            i += 8
        }
        while i < n {
            h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h ^ (h >> 29)
    }

    @inline(__always)
    private func equals(_ id: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let s = starts[id], e = starts[id + 1]
        if e - s != n { return false }
        return arena.withUnsafeBufferPointer { a in
            guard let base = a.baseAddress else { return n == 0 }
            var k = 0
            while k < n {
                if base[s + k] != p[k] { return false }
                k += 1
            }
            return true
        }
    }

    /// The index of the id `p[0..<n]`, adding it when new.
    /// - Complexity: O(n) expected.
    func intern(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        // Lines of one user often follow each other: compare with the last id before hashing.
        if last >= 0 && equals(Int(last), p, n) { return last }
        let h = UserInterner.hash(p, n)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let id = table[slot]
            if id < 0 { break }
            if hashes[Int(id)] == h && equals(Int(id), p, n) {
                last = id
                return id
            }
            slot = (slot + 1) & mask
        }
        let id = Int32(hashes.count)
        arena.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        starts.append(arena.count)
        hashes.append(h)
        table[slot] = id
        if hashes.count * 2 > table.count { grow() }
        last = id
        return id
    }

    private func grow() {
        let size = table.count * 2
        table = Array(repeating: -1, count: size)
        mask = size - 1
        for (id, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(id)
        }
    }

    /// The id with index `i` as a String.
    func string(_ i: Int) -> String {
        String(decoding: arena[starts[i]..<starts[i + 1]], as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of id `i` (a pointer and a count).
    func withBytes<R>(_ i: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        let s = starts[i], n = starts[i + 1] - s
        return try arena.withUnsafeBufferPointer { a in
            // An empty arena has no base address; a NUL byte stands in for the empty id.
            guard let base = a.baseAddress else {
                var zero: UInt8 = 0
                return try body(&zero, 0)
            }
            return try body(base + s, n)
        }
    }

    /// The raw UTF-8 bytes of id `i`.
    func bytes(_ i: Int) -> ArraySlice<UInt8> { arena[starts[i]..<starts[i + 1]] }
}
