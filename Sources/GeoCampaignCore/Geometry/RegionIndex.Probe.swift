extension RegionIndex {
    /// The index seen through plain pointers: a query costs no reference counting. Valid only
    /// while the `RegionIndex` it came from is alive.
    struct Probe {
        let levels: UnsafeBufferPointer<Level>
        let slots: UnsafeBufferPointer<CellTable.Slot>
        let items: UnsafeBufferPointer<Item>

        /// Calls `body(start, count)` with the item run of the point's cell on every level that
        /// lists one, finest level first.
        /// - Complexity: O(levels).
        @inline(__always) func forEachCell(lat: Double, lon: Double, _ body: (Int, Int) -> Void) {
            guard lat.isFinite, lon.isFinite else { return }
            for l in 0..<levels.count {
                let level = levels[l]
                let x = RegionIndex.cellIndex(lon + 180, level.invCell)
                let y = RegionIndex.cellIndex(lat + 90, level.invCell)
                let key = RegionIndex.key(x, y)
                var s = CellTable.home(key, shift: level.shift)
                while true {
                    let slot = slots[level.slotBase + s]
                    if slot.key == key {
                        body(Int(slot.start), Int(slot.count))
                        break
                    }
                    if slot.key == CellTable.empty { break }
                    s = (s + 1) & level.mask
                }
            }
        }

        /// Appends to `result` the owner of every box containing (lat, lon), finest level first
        /// and in entry order within a level.
        /// - Complexity: O(levels + boxes listed in the point's cells).
        @inline(__always) func query(lat: Double, lon: Double, into result: inout [Int32]) {
            forEachCell(lat: lat, lon: lon) { start, count in
                for k in start..<(start + count) where items[k].box.contains(lat: lat, lon: lon) {
                    result.append(items[k].owner)
                }
            }
        }
    }
}

extension RegionIndex {
    /// The last cell a query looked up on one level and what it found there (count 0: nothing).
    /// Consecutive fixes of one user mostly stay in the same cell, so this saves the hash probe.
    struct CellCache {
        var key = CellTable.empty
        var start: Int32 = 0
        var count: Int32 = 0
    }
}

extension RegionIndex.Probe {
    /// As `query(lat:lon:into:)`, remembering per level the last cell looked up in `cache`
    /// (one entry per level, initially `CellCache()`), so a point in the same cell as the
    /// previous one costs no hash probe.
    /// - Complexity: O(levels + boxes listed in the point's cells).
    @inline(__always)
    func query(lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>, into result: inout [Int32]) {
        guard lat.isFinite, lon.isFinite else { return }
        for l in 0..<levels.count {
            let level = levels[l]
            let x = RegionIndex.cellIndex(lon + 180, level.invCell)
            let y = RegionIndex.cellIndex(lat + 90, level.invCell)
            let key = RegionIndex.key(x, y)
            if key != cache[l].key {
                cache[l] = RegionIndex.CellCache(key: key, start: 0, count: 0)
                var s = CellTable.home(key, shift: level.shift)
                while true {
                    let slot = slots[level.slotBase + s]
                    if slot.key == key {
                        cache[l].start = slot.start
                        cache[l].count = slot.count
                        break
                    }
                    if slot.key == CellTable.empty { break }
                    s = (s + 1) & level.mask
                }
            }
            let start = Int(cache[l].start)
            for k in start..<(start + Int(cache[l].count)) where items[k].box.contains(lat: lat, lon: lon) {
                result.append(items[k].owner)
            }
        }
    }
}
