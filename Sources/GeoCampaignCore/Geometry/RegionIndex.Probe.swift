extension RegionIndex {
    /// The index seen through plain pointers: a query costs no reference counting. Valid only
    /// while the `RegionIndex` it came from is alive.
    struct Probe {
        let levels: UnsafeBufferPointer<Level>
        let slots: UnsafeBufferPointer<CellTable.Slot>
        let starts: UnsafeBufferPointer<Int32>
        let items: UnsafeBufferPointer<Item>
        let boxes: UnsafeBufferPointer<BoundingBox>
        let floatBoxes: UnsafeBufferPointer<FloatBox>
        let owners: UnsafeBufferPointer<Int32>

        /// The first cell of the tile with key `tile` on a tiled `level`, or -1 when no box touches it.
        @inline(__always) func tileBase(_ tile: Int64, _ level: Level) -> Int {
            var s = CellTable.home(tile, shift: level.shift)
            while true {
                let slot = slots[level.slotBase + s]
                if slot.key == CellTable.empty { return -1 }
                if slot.key == tile { return slot.base }
                s = (s + 1) & level.mask
            }
        }

        /// The items `start ..< end` listed in the cell of level `l` that holds (lat, lon) (an
        /// empty range when none). With a `cache` (one entry per level), the last tile looked up
        /// on each tiled level is remembered, so a point in the same tile as the previous one
        /// costs no hash probe. The level's fields are read through the pointer one by one:
        /// copying the whole level costs more in the per-fix loop.
        @inline(__always)
        func cellItems(level l: Int, lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>?) -> (start: Int, end: Int) {
            guard let level = levels.baseAddress else { return (0, 0) }
            let inv = level[l].invCell
            let x = RegionIndex.cellIndex(lon + 180, inv)
            let y = RegionIndex.cellIndex(lat + 90, inv)
            let c: Int
            let width = level[l].width
            if width > 0 {
                let dx = x &- level[l].x0, dy = y &- level[l].y0
                if UInt64(bitPattern: dx) >= UInt64(bitPattern: width) || UInt64(bitPattern: dy) >= UInt64(bitPattern: level[l].height) { return (0, 0) }
                c = level[l].runBase + Int(truncatingIfNeeded: dy &* width &+ dx)
            } else {
                let tile = CellTable.tileKey(x, y)
                let base: Int
                if let cache {
                    if tile != cache[l].tile { cache[l] = RegionIndex.CellCache(tile: tile, base: tileBase(tile, level[l])) }
                    base = cache[l].base
                } else {
                    base = tileBase(tile, level[l])
                }
                if base < 0 { return (0, 0) }
                c = base + CellTable.offsetInTile(x, y)
            }
            return (Int(starts[c]), Int(starts[c + 1]))
        }

        /// Calls `body(start, count)` with the items of the point's cell on every level that
        /// lists some, finest level first.
        /// - Complexity: O(levels).
        @inline(__always) func forEachCell(lat: Double, lon: Double, _ body: (Int, Int) -> Void) {
            guard lat.isFinite, lon.isFinite else { return }
            for l in 0..<levels.count {
                let (start, end) = cellItems(level: l, lat: lat, lon: lon, cache: nil)
                if end > start { body(start, end - start) }
            }
        }

        /// Appends to `result` the owner of every box containing (lat, lon), finest level first
        /// and in entry order within a level.
        /// - Complexity: O(levels + boxes listed in the point's cells).
        @inline(__always) func query(lat: Double, lon: Double, into result: inout [Int32]) {
            forEachCell(lat: lat, lon: lon) { start, count in
                for k in start..<(start + count) {
                    let e = Int(items[k].entry)
                    if floatBoxes[e].mayContain(lat: lat, lon: lon) && boxes[e].contains(lat: lat, lon: lon) { result.append(owners[e]) }
                }
            }
        }
    }
}

extension RegionIndex {
    /// The last tile a query looked up on one tiled level and where its cells start in `starts` (-1: no box
    /// there). Consecutive fixes of one user mostly stay in the same tile, so this saves the
    /// hash probe.
    struct CellCache {
        var tile = CellTable.empty
        var base = -1
    }
}

extension RegionIndex.Probe {
    /// As `query(lat:lon:into:)`, but with the boxes' float bounds only (rounded outward): it
    /// returns every owner the exact query returns, and may add one whose exact box the point
    /// misses by less than a float's step (about 2 m). For the crossing loop, where a region
    /// returned but OUT is the same as a region not returned. Remembers per tiled level the last
    /// tile looked up in `cache` (one entry per level, initially `CellCache()`).
    /// - Complexity: O(levels + boxes listed in the point's cells).
    @inline(__always)
    func candidates(lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>, into result: inout ScratchBuffer<Int32>) {
        guard lat.isFinite, lon.isFinite else { return }
        for l in 0..<levels.count {
            let (start, end) = cellItems(level: l, lat: lat, lon: lon, cache: cache)
            for k in start..<end {
                let e = Int(items[k].entry)
                if floatBoxes[e].mayContain(lat: lat, lon: lon) { result.append(owners[e]) }
            }
        }
    }
}
