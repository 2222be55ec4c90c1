/// Immutable contiguous storage of plain values (no references inside), freed with its owner.
///
/// Hot loops read it through `elements`, an unsafe buffer that stays valid while the owner is
/// alive: taking it once per call avoids the reference counting and uniqueness checks that
/// Swift arrays held in structs cost on every access.
final class FixedBuffer<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    /// The elements; valid for the lifetime of `self`.
    let elements: UnsafeBufferPointer<Element>

    /// Copies `array` into fresh storage.
    /// - Complexity: O(n).
    init(_ array: [Element]) {
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: max(1, array.count))
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
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: max(1, count))
        body(UnsafeMutableBufferPointer(start: memory, count: count))
        storage = memory
        elements = UnsafeBufferPointer(start: memory, count: count)
    }

    /// Number of elements.
    var count: Int { elements.count }

    deinit {
        storage.deinitialize(count: elements.count)
        storage.deallocate()
    }
}
