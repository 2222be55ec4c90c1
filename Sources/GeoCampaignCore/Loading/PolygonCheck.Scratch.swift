extension PolygonCheck {
    /// Memory that the checks of one thread reuse from polygon to polygon (the edges of
    /// `firstCrossing`): an import checks 100k rings, each of which allocated and freed 1.8 KB
    /// for its 32 edges. Not for two threads at once.
    final class Scratch {
        private var base: UnsafeMutableRawPointer?
        private var capacity = 0

        init() {}

        /// At least `bytes` bytes, aligned for any plain value, valid until the next call;
        /// their contents are not kept.
        func memory(_ bytes: Int) -> UnsafeMutableRawPointer {
            if let base, bytes <= capacity { return base }
            base?.deallocate()
            capacity = max(bytes, 2 * capacity, 4_096)
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            base = fresh
            return fresh
        }

        deinit {
            base?.deallocate()
        }
    }
}
