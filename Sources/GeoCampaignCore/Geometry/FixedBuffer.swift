import Foundation

/// Immutable contiguous storage of plain values (no references inside), freed with its owner.
///
/// Hot loops read it through `elements`, an unsafe buffer that stays valid while the owner is
/// alive: taking it once per call avoids the reference counting and uniqueness checks that
/// Swift arrays held in structs cost on every access.
///
/// Storage of 2 MiB or more is aligned to 2 MiB and may use huge pages (`MADV_HUGEPAGE`): the
/// crossing loop reads the region index, the region records and the cell grids at places that
/// jump across tens of megabytes on a large campaign set (100,000 regions), and with 4 KiB
/// pages nearly every such read also misses the TLB. Huge pages also take a few page faults to
/// fill instead of one per 4 KiB. The values are the same either way.
final class FixedBuffer<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    /// The elements; valid for the lifetime of `self`.
    let elements: UnsafeBufferPointer<Element>

    /// Copies `array` into fresh storage.
    /// - Complexity: O(n).
    init(_ array: [Element]) {
        let memory = FixedBuffer.allocate(array.count)
        array.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { memory.initialize(from: base, count: src.count) }
        }
        storage = memory
        elements = UnsafeBufferPointer(start: memory, count: array.count)
    }

    /// `count` elements written in place by `body`, which must initialize every one of them
    /// (no intermediate array: the memory is touched once).
    /// - Complexity: O(n) plus `body`.
    init(count: Int, initializingWith body: (UnsafeMutableBufferPointer<Element>) -> Void) {
        let memory = FixedBuffer.allocate(count)
        body(UnsafeMutableBufferPointer(start: memory, count: count))
        storage = memory
        elements = UnsafeBufferPointer(start: memory, count: count)
    }

    /// Number of elements.
    var count: Int { elements.count }

    /// Storage of at least one element, to be freed with `free` (see the type's comment on huge pages).
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<Element> {
        let bytes = max(1, count) * MemoryLayout<Element>.stride
        let huge = 2 << 20
        var p: UnsafeMutableRawPointer?
        if posix_memalign(&p, bytes >= huge ? huge : max(16, MemoryLayout<Element>.alignment), bytes) != 0 || p == nil {
            fatalError("out of memory: \(bytes) bytes")
        }
        #if os(Linux)
        if bytes >= huge { _ = madvise(p, bytes / huge * huge, Int32(MADV_HUGEPAGE)) }
        #endif
        return p.unsafelyUnwrapped.bindMemory(to: Element.self, capacity: max(1, count))
    }

    deinit {
        storage.deinitialize(count: elements.count)
        free(storage)
    }
}
