extension RegionIndex {
    /// The index seen through plain pointers: a query costs no reference counting. Valid only
    /// while the `RegionIndex` it came from is alive.
    struct Probe {
        let levels: UnsafeBufferPointer<Level>
        let slots: UnsafeBufferPointer<CellTable.Slot>
        let runs: UnsafeBufferPointer<CellTable.Run>
        let items: UnsafeBufferPointer<Item>
        let boxes: UnsafeBufferPointer<BoundingBox>
        let owners: UnsafeBufferPointer<Int32>

        /// The first run of the tile with key `tile` on `level`, or -1 when no box touches it.
        @inline(__always) func tileBase(_ tile: Int64, _ level: Level) -> Int {
            var s = CellTable.home(tile, shift: level.shift)
            while true {
                let slot = slots[level.slotBase + s]
                if slot.key == CellTable.empty { return -1 }
                if slot.key == tile { return slot.base }
                s = (s + 1) & level.mask
            }
        }

        /// Calls `body(start, count)` with the item run of the point's cell on every level that
        /// lists one, finest level first.
        /// - Complexity: O(levels).
        @inline(__always) func forEachCell(lat: Double, lon: Double, _ body: (Int, Int) -> Void) {
            guard lat.isFinite, lon.isFinite else { return }
            for l in 0..<levels.count {
                let level = levels[l]
                let x = RegionIndex.cellIndex(lon + 180, level.invCell)
                let y = RegionIndex.cellIndex(lat + 90, level.invCell)
                let base = tileBase(CellTable.tileKey(x, y), level)
                if base < 0 { continue }
                let run = runs[base + CellTable.offsetInTile(x, y)]
                if run.count > 0 { body(Int(run.start), Int(run.count)) }
            }
        }

        /// Appends to `result` the owner of every box containing (lat, lon), finest level first
        /// and in entry order within a level.
        /// - Complexity: O(levels + boxes listed in the point's cells).
        @inline(__always) func query(lat: Double, lon: Double, into result: inout [Int32]) {
            forEachCell(lat: lat, lon: lon) { start, count in
                for k in start..<(start + count) {
                    let e = Int(items[k].entry)
                    if boxes[e].contains(lat: lat, lon: lon) { result.append(owners[e]) }
                }
            }
        }
    }
}

extension RegionIndex {
    /// The last tile a query looked up on one level and where its runs are (-1: no box there).
    /// Consecutive fixes of one user mostly stay in the same tile, so this saves the hash probe.
    struct CellCache {
        var tile = CellTable.empty
        var base = -1
    }
}

extension RegionIndex.Probe {
    /// As `query(lat:lon:into:)`, remembering per level the last tile looked up in `cache`
    /// (one entry per level, initially `CellCache()`), so a point in the same tile as the
    /// previous one costs no hash probe.
    /// - Complexity: O(levels + boxes listed in the point's cells).
    @inline(__always)
    func query(lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>, into result: inout [Int32]) {
        guard lat.isFinite, lon.isFinite else { return }
        for l in 0..<levels.count {
            let level = levels[l]
            let x = RegionIndex.cellIndex(lon + 180, level.invCell)
            let y = RegionIndex.cellIndex(lat + 90, level.invCell)
            let tile = CellTable.tileKey(x, y)
            if tile != cache[l].tile {
                cache[l] = RegionIndex.CellCache(tile: tile, base: tileBase(tile, level))
            }
            let base = cache[l].base
            if base < 0 { continue }
            let run = runs[base + CellTable.offsetInTile(x, y)]
            let start = Int(run.start)
            for k in start..<(start + Int(run.count)) {
                let e = Int(items[k].entry)
                if boxes[e].contains(lat: lat, lon: lon) { result.append(owners[e]) }
            }
        }
    }
}
