/// A growable buffer of plain values (no references inside) for one call of a hot loop: an
/// append costs no uniqueness check or reference counting, unlike an array's. The owner calls
/// `free()` exactly once when done; the buffer must not be copied and used after that.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` elements (at least 16).
    init(capacity: Int) {
        let c = max(16, capacity)
        base = UnsafeMutablePointer<Element>.allocate(capacity: c)
        self.capacity = c
    }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Element `i`, which must be below `count` (not checked).
    @inline(__always) subscript(i: Int) -> Element { base[i] }

    private mutating func grow() {
        let c = capacity * 2
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: c)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = c
    }

    /// Releases the storage.
    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
