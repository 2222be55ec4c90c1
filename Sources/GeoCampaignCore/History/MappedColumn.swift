#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable array of plain values in its own anonymous memory mapping. Reserved capacity is
/// address space only (pages cost memory once written), and a prefix that has been read for the
/// last time can be handed back to the system while the rest is still in use: reading a history
/// then never holds the parsed fixes twice.
///
/// For trivial types only (no references: elements are never deinitialized). Not thread-safe.
final class MappedColumn<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int
    /// Whether `base` is a mapping (else, when mapping failed, an allocation).
    private var mapped: Bool
    /// Bytes from the start already handed back.
    private var released = 0

    /// Asks for huge pages (fewer page faults) when written front to back.
    private let sequential: Bool

    /// Reserves room for `capacity` elements (at least 4096), to be appended front to back
    /// (the mapping may then use huge pages).
    init(capacity: Int) {
        self.capacity = max(4096, capacity)
        sequential = true
        (base, mapped) = MappedColumn.map(self.capacity, hugePages: true)
    }

    /// `count` zero-filled elements (all-zero bytes must be a valid `Element`), to be written in
    /// any order; with `hugePages`, the mapping may use huge pages (fewer page faults on first
    /// touch; worth it when every page is written).
    init(zeroed count: Int, hugePages: Bool = false) {
        capacity = max(4096, count)
        sequential = false
        (base, mapped) = MappedColumn.map(capacity, hugePages: hugePages)
        if !mapped { UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: capacity * MemoryLayout<Element>.stride) }
        self.count = count
    }

    deinit {
        MappedColumn.unmap(base, capacity, mapped)
    }

    private static func unmap(_ p: UnsafeMutablePointer<Element>, _ n: Int, _ mapped: Bool) {
        if mapped { munmap(p, n * MemoryLayout<Element>.stride) } else { p.deallocate() }
    }

    /// A mapping of `n` elements. One of 4 MiB or more that may use huge pages starts on a 2 MiB
    /// boundary (the reservation is 2 MiB larger and its ends are given back), so that all of it
    /// but its last partial 2 MiB can be huge pages: at an address the system chose, the stretch
    /// before the first boundary took 4 KiB pages, about 256 page faults per column (a file read
    /// in many parts has two columns per part).
    private static func map(_ n: Int, hugePages: Bool) -> (UnsafeMutablePointer<Element>, Bool) {
        let bytes = n * MemoryLayout<Element>.stride
        #if canImport(Glibc)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        let huge = 2 << 20
        let aligning = hugePages && bytes >= 4 << 20
        let reserved = aligning ? bytes + huge : bytes
        let m = mmap(nil, reserved, PROT_READ | PROT_WRITE, flags, -1, 0)
        guard let m, m != MAP_FAILED else {
            return (UnsafeMutablePointer<Element>.allocate(capacity: n), false)
        }
        var start = m
        if aligning {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let at = Int(bitPattern: m)
            let aligned = (at + huge - 1) / huge * huge
            let used = (aligned + bytes + page - 1) / page * page
            if aligned > at { munmap(m, aligned - at) }
            if at + reserved > used { munmap(m + (used - at), at + reserved - used) }
            start = m + (aligned - at)
        }
        #if os(Linux)
        if aligning { madvise(start, bytes, Int32(MADV_HUGEPAGE)) }
        #endif
        return (start.bindMemory(to: Element.self, capacity: n), true)
    }

    /// Appends `x`, doubling the reservation when full.
    @inline(__always)
    func append(_ x: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: x)
        count += 1
    }

    private func grow() {
        let (bigger, isMapped) = MappedColumn.map(capacity * 2, hugePages: sequential)
        bigger.update(from: base, count: count)
        MappedColumn.unmap(base, capacity, mapped)
        base = bigger
        mapped = isMapped
        capacity *= 2
        released = 0
    }

    /// Hands back the whole pages below element `end` (they must not be read again).
    func release(below end: Int) {
        guard mapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let upTo = (end * MemoryLayout<Element>.stride) / page * page
        if upTo - released >= 1 << 20 {
            madvise(UnsafeMutableRawPointer(base) + released, upTo - released, Int32(MADV_DONTNEED))
            released = upTo
        }
    }

    /// Hands back the whole pages inside elements `from..<to` (they must not be read again).
    /// Unlike `release(below:)`, safe to call from several threads on disjoint ranges.
    func releasePages(from: Int, to: Int) {
        guard mapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lo = (from * MemoryLayout<Element>.stride + page - 1) / page * page
        let hi = (to * MemoryLayout<Element>.stride) / page * page
        if hi > lo { madvise(UnsafeMutableRawPointer(base) + lo, hi - lo, Int32(MADV_DONTNEED)) }
    }

    /// Hands back the pages past the last element, which were never written (whole pages, and
    /// the rest of a huge page that the last elements only began): a column that is complete
    /// keeps only the memory its elements take. Appending afterwards is allowed (the pages come
    /// back zeroed, as at first).
    func releaseUnused() {
        guard mapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let from = (count * MemoryLayout<Element>.stride + page - 1) / page * page
        let to = capacity * MemoryLayout<Element>.stride / page * page
        if to > from { madvise(UnsafeMutableRawPointer(base) + from, to - from, Int32(MADV_DONTNEED)) }
    }

    /// Hands back every page; the column is empty and must not be used again.
    func releaseAll() {
        if mapped { madvise(UnsafeMutableRawPointer(base), capacity * MemoryLayout<Element>.stride, Int32(MADV_DONTNEED)) }
        count = 0
        released = 0
    }
}
