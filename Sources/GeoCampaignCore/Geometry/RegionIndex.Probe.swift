extension RegionIndex {
    /// The index seen through plain pointers: a query costs no reference counting. Valid only
    /// while the `RegionIndex` it came from is alive.
    struct Probe {
        let levels: UnsafeBufferPointer<Level>
        let slots: UnsafeBufferPointer<CellTable.Slot>
        let starts: UnsafeBufferPointer<Int32>
        let runs: UnsafeBufferPointer<CellTable.Run>
        let items: UnsafeBufferPointer<Item>
        let boxes: UnsafeBufferPointer<BoundingBox>
        let floatBoxes: UnsafeBufferPointer<FloatBox>
        let owners: UnsafeBufferPointer<Int32>

        /// The first run of the tile with key `tile` on a tiled `level`, or -1 when no box touches it.
        @inline(__always) func tileBase(_ tile: Int64, _ level: Level) -> Int {
            var s = CellTable.home(tile, shift: level.shift)
            while true {
                let slot = slots[level.slotBase + s]
                if slot.key == CellTable.empty { return -1 }
                if slot.key == tile { return slot.base }
                s = (s + 1) & level.mask
            }
        }

        /// The index of cell (x, y) in `starts` on a dense `level`, or -1 when the cell is outside its area.
        @inline(__always) func denseCell(_ x: Int64, _ y: Int64, _ level: Level) -> Int {
            let dx = x &- level.x0, dy = y &- level.y0
            if UInt64(bitPattern: dx) >= UInt64(bitPattern: level.width) || UInt64(bitPattern: dy) >= UInt64(bitPattern: level.height) { return -1 }
            return level.runBase + Int(truncatingIfNeeded: dy &* level.width &+ dx)
        }

        /// The items of cell (x, y) on `level` as (start, count); count 0 when none.
        @inline(__always) func cellItems(_ x: Int64, _ y: Int64, _ level: Level) -> (Int, Int) {
            if level.width > 0 {
                let c = denseCell(x, y, level)
                if c < 0 { return (0, 0) }
                let s = Int(starts[c])
                return (s, Int(starts[c + 1]) - s)
            }
            let base = tileBase(CellTable.tileKey(x, y), level)
            if base < 0 { return (0, 0) }
            let run = runs[base + CellTable.offsetInTile(x, y)]
            return (Int(run.start), Int(run.count))
        }

        /// Calls `body(start, count)` with the item run of the point's cell on every level that
        /// lists one, finest level first.
        /// - Complexity: O(levels).
        @inline(__always) func forEachCell(lat: Double, lon: Double, _ body: (Int, Int) -> Void) {
            guard lat.isFinite, lon.isFinite else { return }
            for l in 0..<levels.count {
                let level = levels[l]
                let (start, count) = cellItems(RegionIndex.cellIndex(lon + 180, level.invCell), RegionIndex.cellIndex(lat + 90, level.invCell), level)
                if count > 0 { body(start, count) }
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
    /// The last tile a query looked up on one tiled level and where its runs are (-1: no box
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
        guard lat.isFinite, lon.isFinite, let level = levels.baseAddress else { return }
        let x180 = lon + 180, y90 = lat + 90
        for l in 0..<levels.count {
            // Fields are read through the pointer one by one: copying the whole level costs more.
            let inv = level[l].invCell
            let x = RegionIndex.cellIndex(x180, inv)
            let y = RegionIndex.cellIndex(y90, inv)
            let start: Int, end: Int
            let width = level[l].width
            if width > 0 {
                let dx = x &- level[l].x0, dy = y &- level[l].y0
                if UInt64(bitPattern: dx) >= UInt64(bitPattern: width) || UInt64(bitPattern: dy) >= UInt64(bitPattern: level[l].height) { continue }
                let c = level[l].runBase + Int(truncatingIfNeeded: dy &* width &+ dx)
                start = Int(starts[c])
                end = Int(starts[c + 1])
            } else {
                let tile = CellTable.tileKey(x, y)
                if tile != cache[l].tile {
                    cache[l] = RegionIndex.CellCache(tile: tile, base: tileBase(tile, level[l]))
                }
                let base = cache[l].base
                if base < 0 { continue }
                let cell = runs[base + CellTable.offsetInTile(x, y)]
                start = Int(cell.start)
                end = start + Int(cell.count)
            }
            for k in start..<end {
                let e = Int(items[k].entry)
                if floatBoxes[e].mayContain(lat: lat, lon: lon) { result.append(owners[e]) }
            }
        }
    }
}
