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

        /// The index in `starts` of the cell of level `l` that holds (lat, lon), or -1 when the
        /// level lists nothing there (its items are `starts[c] ..< starts[c + 1]`). With a
        /// `cache` (one entry per level), the last tile looked up on each tiled level is
        /// remembered, so a point in the same tile as the previous one costs no hash probe. The
        /// level's fields are read through the pointer one by one: copying the whole level costs
        /// more in the per-fix loop.
        @inline(__always)
        func cell(level l: Int, lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>?) -> Int {
            guard let level = levels.baseAddress else { return -1 }
            let inv = level[l].invCell
            let x = RegionIndex.cellIndex(lon + 180, inv)
            let y = RegionIndex.cellIndex(lat + 90, inv)
            let width = level[l].width
            if width > 0 {
                let dx = x &- level[l].x0, dy = y &- level[l].y0
                if UInt64(bitPattern: dx) >= UInt64(bitPattern: width) || UInt64(bitPattern: dy) >= UInt64(bitPattern: level[l].height) { return -1 }
                return level[l].runBase + Int(truncatingIfNeeded: dy &* width &+ dx)
            }
            let tile = CellTable.tileKey(x, y)
            let base: Int
            if let cache {
                if tile != cache[l].tile { cache[l] = RegionIndex.CellCache(tile: tile, base: tileBase(tile, level[l])) }
                base = cache[l].base
            } else {
                base = tileBase(tile, level[l])
            }
            return base < 0 ? -1 : base + CellTable.offsetInTile(x, y)
        }

        /// The items `start ..< end` listed in the cell of level `l` that holds (lat, lon) (an
        /// empty range when none); `cache` as in `cell(level:lat:lon:cache:)`.
        @inline(__always)
        func cellItems(level l: Int, lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>?) -> (start: Int, end: Int) {
            let c = cell(level: l, lat: lat, lon: lon, cache: cache)
            if c < 0 { return (0, 0) }
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

extension RegionIndex.Probe {
    /// How many points ahead `candidates(count:point:cache:into:ends:)` starts on a point: it
    /// looks up the point's cells `2 * lead` points ahead (and asks for their starts' cache
    /// lines), reads the starts `lead` points ahead (and asks for the items' lines), reads the
    /// items `lead / 2` points ahead (and asks for their float boxes' and owners' lines), and
    /// then finds the point's candidates in lines that are mostly loaded by then.
    static let lead = 4
    /// Points whose cells are kept at once (a power of two above `2 * lead`).
    static let ringSize = 16

    /// `candidates(lat:lon:cache:into:)` for points `0 ..< count` in order, where `point(i)` is
    /// point `i`, or nil for a point not to look up; after point `i`, `ends[i]` is
    /// `result.count`. The same results as one call per point, found in a pipeline: a point's
    /// loads wait on one another (cell start, item, float box), and on a large index (L:
    /// 17 MB of cell starts, read at random) each of them misses the cache, so each is asked
    /// for a few points before it is needed (see `lead`).
    /// - Complexity: O(count x (levels + boxes listed in the points' cells)).
    @inline(__always)
    func candidates(count: Int, point: (Int) -> (lat: Double, lon: Double)?, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>,
                    into result: inout ScratchBuffer<Int32>, ends: UnsafeMutableBufferPointer<Int32>) {
        let levelCount = levels.count
        guard levelCount > 0, let startBase = starts.baseAddress, let itemBase = items.baseAddress,
              let boxBase = floatBoxes.baseAddress, let ownerBase = owners.baseAddress else {
            for i in 0..<count { ends[i] = Int32(truncatingIfNeeded: result.count) }
            return
        }
        let lead = RegionIndex.Probe.lead, mask = RegionIndex.Probe.ringSize - 1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: RegionIndex.Probe.ringSize * levelCount) { ring in
            // ring[(i & mask) * levelCount + l]: point i's cell on level l, or -1.
            for i in -2 * lead..<count {
                let ahead = i + 2 * lead
                if ahead < count {
                    let base = (ahead & mask) * levelCount
                    if let p = point(ahead), p.lat.isFinite, p.lon.isFinite {
                        for l in 0..<levelCount {
                            let c = cell(level: l, lat: p.lat, lon: p.lon, cache: cache)
                            ring[base + l] = c
                            if c >= 0 { prefetch(startBase + c) }
                        }
                    } else {
                        for l in 0..<levelCount { ring[base + l] = -1 }
                    }
                }
                let near = i + lead
                if near >= 0 && near < count {
                    let base = (near & mask) * levelCount
                    for l in 0..<levelCount where ring[base + l] >= 0 { prefetch(itemBase + Int(startBase[ring[base + l]])) }
                }
                let next = i + lead / 2
                if next >= 0 && next < count {
                    let base = (next & mask) * levelCount
                    for l in 0..<levelCount where ring[base + l] >= 0 {
                        let c = ring[base + l]
                        for k in Int(startBase[c])..<Int(startBase[c + 1]) {
                            let e = Int(itemBase[k].entry)
                            prefetch(boxBase + e)
                            prefetch(ownerBase + e)
                        }
                    }
                }
                guard i >= 0 else { continue }
                let base = (i & mask) * levelCount
                if let p = point(i) {
                    for l in 0..<levelCount where ring[base + l] >= 0 {
                        let c = ring[base + l]
                        for k in Int(startBase[c])..<Int(startBase[c + 1]) {
                            let e = Int(itemBase[k].entry)
                            if boxBase[e].mayContain(lat: p.lat, lon: p.lon) { result.append(ownerBase[e]) }
                        }
                    }
                }
                ends[i] = Int32(truncatingIfNeeded: result.count)
            }
        }
    }
}
