#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interns user ids: maps the UTF-8 bytes of an id to a dense index, storing each distinct id once.
/// Lookups hash the bytes directly; no `String` is created for a known id. The storage is raw
/// memory owned by the interner (no reference counting or bounds checks on the hot path).
final class UserInterner {
    /// The bytes of every id, one after the other.
    @exclusivity(unchecked) private var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var arenaCount = 0
    @exclusivity(unchecked) private var arenaCapacity: Int
    /// `starts[i]` is where id `i` begins in `arena`; `starts[count]` is `arenaCount`.
    @exclusivity(unchecked) private var starts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var hashes: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var idCount = 0
    @exclusivity(unchecked) private var idCapacity: Int
    /// Open addressing with linear probing: id numbers, -1 for an empty slot.
    @exclusivity(unchecked) private var table: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var mask: Int
    /// The last id returned, where its bytes start and how many there are (-1 when none yet).
    @exclusivity(unchecked) private var last: Int32 = -1
    @exclusivity(unchecked) private var lastStart = 0
    @exclusivity(unchecked) private var lastCount = -1

    init() {
        arenaCapacity = 4096
        arena = UnsafeMutablePointer<UInt8>.allocate(capacity: arenaCapacity)
        idCapacity = 256
        starts = UnsafeMutablePointer<Int>.allocate(capacity: idCapacity + 1)
        starts[0] = 0
        hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: idCapacity)
        table = UnsafeMutablePointer<Int32>.allocate(capacity: 1024)
        table.initialize(repeating: -1, count: 1024)
        mask = 1023
    }

    deinit {
        arena.deallocate()
        starts.deallocate()
        hashes.deallocate()
        table.deallocate()
    }

    /// The number of distinct ids.
    var count: Int { idCount }

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

    /// Whether the `n` bytes at `a` and `b` are equal: whole words, the last one overlapping.
    @inline(__always)
    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        if n >= 8 {
            var k = 0
            while k &+ 8 < n {
                if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) {
                    return false
                }
                k &+= 8
            }
            return x.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                == y.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        if n >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        }
        var k = 0
        while k < n {
            if a[k] != b[k] { return false }
            k &+= 1
        }
        return true
    }

    @inline(__always)
    private func equals(_ id: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let s = starts[id]
        return starts[id &+ 1] &- s == n && UserInterner.same(arena + s, p, n)
    }

    /// The index of the id `p[0..<n]`, adding it when new.
    /// - Complexity: O(n) expected.
    @inline(__always)
    func intern(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        // Lines of one user often follow each other: compare with the last id before hashing.
        if n == lastCount && UserInterner.same(arena + lastStart, p, n) { return last }
        return lookUp(p, n)
    }

    /// The index of the id `id`, adding it when new.
    func intern(_ id: String) -> Int32 {
        var bytes = Array(id.utf8)
        bytes.append(0)  // never counted: keeps the buffer non-empty for an empty id
        return bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return 0 }
            return intern(base, b.count - 1)
        }
    }

    private func lookUp(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        let h = UserInterner.hash(p, n)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let id = table[slot]
            if id < 0 { break }
            if hashes[Int(id)] == h && equals(Int(id), p, n) {
                remember(id)
                return id
            }
            slot = (slot + 1) & mask
        }
        let id = Int32(idCount)
        append(p, n, hash: h)
        table[slot] = id
        if idCount * 2 > mask + 1 { grow() }
        remember(id)
        return id
    }

    @inline(__always)
    private func remember(_ id: Int32) {
        last = id
        lastStart = starts[Int(id)]
        lastCount = starts[Int(id) + 1] - lastStart
    }

    private func append(_ p: UnsafePointer<UInt8>, _ n: Int, hash h: UInt64) {
        if arenaCount + n > arenaCapacity {
            let capacity = max(arenaCapacity * 2, arenaCount + n)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bigger.update(from: arena, count: arenaCount)
            arena.deallocate()
            arena = bigger
            arenaCapacity = capacity
        }
        if idCount == idCapacity {
            let capacity = idCapacity * 2
            let biggerStarts = UnsafeMutablePointer<Int>.allocate(capacity: capacity + 1)
            biggerStarts.update(from: starts, count: idCount + 1)
            starts.deallocate()
            starts = biggerStarts
            let biggerHashes = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
            biggerHashes.update(from: hashes, count: idCount)
            hashes.deallocate()
            hashes = biggerHashes
            idCapacity = capacity
        }
        (arena + arenaCount).update(from: p, count: n)
        arenaCount += n
        hashes[idCount] = h
        idCount += 1
        starts[idCount] = arenaCount
    }

    private func grow() {
        let size = (mask + 1) * 2
        table.deallocate()
        table = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        table.initialize(repeating: -1, count: size)
        mask = size - 1
        for id in 0..<idCount {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(id)
        }
    }

    /// The id with index `i` as a String.
    func string(_ i: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: arena + starts[i], count: starts[i + 1] - starts[i]), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of id `i` (a pointer and a count).
    func withBytes<R>(_ i: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        try body(arena + starts[i], starts[i + 1] - starts[i])
    }

    /// The raw UTF-8 bytes of id `i`.
    func bytes(_ i: Int) -> ArraySlice<UInt8> {
        ArraySlice(UnsafeBufferPointer(start: arena + starts[i], count: starts[i + 1] - starts[i]))
    }
}
