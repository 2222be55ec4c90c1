extension RegionIndex {
    /// The index seen through plain pointers: a query costs no reference counting. Valid only
    /// while the `RegionIndex` it came from is alive.
    struct Probe {
        let levels: UnsafeBufferPointer<Level>
        let slots: UnsafeBufferPointer<CellTable.Slot>
        let starts: UnsafeBufferPointer<Int32>
        let items: UnsafeBufferPointer<Item>

        /// A cell found for a point, packed in one `Int`: the cell's index in `starts` in the low
        /// 40 bits and the point's fractions of the cell (`CellBox.mayContain`) above them;
        /// -1 when the level lists nothing there.
        @inline(__always) static func cellIndex(_ found: Int) -> Int { found & (1 << 40 - 1) }
        @inline(__always) static func fractions(_ found: Int) -> Int { found >> 40 }

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

        /// The cell of level `l` that holds (lat, lon) and the point's fractions of it, packed
        /// (`cellIndex`, `fractions`), or -1 when the level lists nothing there (its items are
        /// `starts[c] ..< starts[c + 1]`). With a `cache` (one entry per level), the last tile
        /// looked up on each tiled level is remembered, so a point in the same tile as the
        /// previous one costs no hash probe. The level's fields are read through the pointer one
        /// by one: copying the whole level costs more in the per-fix loop.
        @inline(__always)
        func cell(level l: Int, lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>?) -> Int {
            guard let level = levels.baseAddress else { return -1 }
            let inv = level[l].invCell
            let vx = (lon + 180) * inv, vy = (lat + 90) * inv
            let x: Int64, y: Int64, q: Int
            if vx >= 0 && vx < 0x1p44 && vy >= 0 && vy < 0x1p44 {
                // Every coordinate in range (v is at most 360 * 2^30): scaling by 256 is exact,
                // so floor(256 v) = 256 floor(v) + floor(256 (v - floor(v))), where floor(v) is
                // `cellIndex` and the second term `CellBox.fraction` (whose clamps do not apply
                // for v - floor(v) in [0, 1), itself exact): one conversion per axis for both.
                let wx = Probe.floor(vx * 256), wy = Probe.floor(vy * 256)
                x = wx >> 8
                y = wy >> 8
                q = Int(wy & 255) << 48 | Int(wx & 255) << 40
            } else {
                (x, y, q) = Probe.cellAndFractions(lat: lat, lon: lon, inv: inv)
            }
            let width = level[l].width
            if width > 0 {
                let dx = x &- level[l].x0, dy = y &- level[l].y0
                if UInt64(bitPattern: dx) >= UInt64(bitPattern: width) || UInt64(bitPattern: dy) >= UInt64(bitPattern: level[l].height) { return -1 }
                return (level[l].runBase + Int(truncatingIfNeeded: dy &* width &+ dx)) | q
            }
            let tile = CellTable.tileKey(x, y)
            let base: Int
            if let cache {
                if tile != cache[l].tile { cache[l] = RegionIndex.CellCache(tile: tile, base: tileBase(tile, level[l])) }
                base = cache[l].base
            } else {
                base = tileBase(tile, level[l])
            }
            return base < 0 ? -1 : (base + CellTable.offsetInTile(x, y)) | q
        }

        /// `floor(t)` for `0 <= t < 2^52`, without the range checks of a conversion: `t + 2^52`
        /// is `t` rounded to an integer (the doubles from 2^52 to 2^53 are the integers), whose
        /// bits less those of 2^52 are that integer; one less when it rounded up.
        @inline(__always) static func floor(_ t: Double) -> Int64 {
            let rounded = Int64(bitPattern: (t + 0x1p52).bitPattern &- (0x1p52 as Double).bitPattern)
            return Double(rounded) > t ? rounded &- 1 : rounded
        }

        /// The cell (x, y) of a level with `1 / cell size` `inv` that holds (lat, lon), and the
        /// point's fractions of it packed as `cell(level:lat:lon:cache:)` packs them, by
        /// `cellIndex` and `CellBox.fraction` themselves: for coordinates out of range, which that
        /// function's one conversion per axis does not cover (out of line, so that the common
        /// path stays small enough to be inlined).
        @inline(never)
        static func cellAndFractions(lat: Double, lon: Double, inv: Double) -> (Int64, Int64, Int) {
            let x = RegionIndex.cellIndex(lon + 180, inv)
            let y = RegionIndex.cellIndex(lat + 90, inv)
            return (x, y, Int(CellBox.fraction((lat + 90) * inv, y)) << 48 | Int(CellBox.fraction((lon + 180) * inv, x)) << 40)
        }

        /// The items `start ..< end` listed in the cell of level `l` that holds (lat, lon) (an
        /// empty range when none) and the point's fractions of the cell; `cache` as in
        /// `cell(level:lat:lon:cache:)`.
        @inline(__always)
        func cellItems(level l: Int, lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>?) -> (start: Int, end: Int, q: Int) {
            let found = cell(level: l, lat: lat, lon: lon, cache: cache)
            if found < 0 { return (0, 0, 0) }
            let c = Probe.cellIndex(found)
            return (Int(starts[c]), Int(starts[c + 1]), Probe.fractions(found))
        }

        /// Calls `body(start, count)` with the items of the point's cell on every level that
        /// lists some, finest level first.
        /// - Complexity: O(levels).
        @inline(__always) func forEachCell(lat: Double, lon: Double, _ body: (Int, Int) -> Void) {
            guard lat.isFinite, lon.isFinite else { return }
            for l in 0..<levels.count {
                let (start, end, _) = cellItems(level: l, lat: lat, lon: lon, cache: nil)
                if end > start { body(start, end - start) }
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
    /// The owners of the boxes that may hold (lat, lon), from the items' boxes only (rounded
    /// outward to 1/256 of the cell): every owner the exact query (`RegionIndex.query`) returns,
    /// and maybe one whose exact box the point misses by less than 1/256 of the cell. For the
    /// crossing loop, where a region returned but OUT is the same as a region not returned.
    /// Remembers per tiled level the last tile looked up in `cache` (one entry per level,
    /// initially `CellCache()`).
    /// - Complexity: O(levels + boxes listed in the point's cells).
    @inline(__always)
    func candidates(lat: Double, lon: Double, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>, into result: inout ScratchBuffer<Int32>) {
        guard lat.isFinite, lon.isFinite else { return }
        for l in 0..<levels.count {
            let (start, end, q) = cellItems(level: l, lat: lat, lon: lon, cache: cache)
            for k in start..<end where items[k].box.mayContain(q) { result.append(items[k].owner) }
        }
    }
}

extension RegionIndex.Probe {
    /// How many points ahead `candidates(count:point:cache:into:ends:)` starts on a point: it
    /// looks up the point's cells `2 * lead` points ahead (and asks for their starts' cache
    /// lines), reads the starts `lead` points ahead (and asks for the lines of the items, which
    /// hold their boxes), and then finds the point's candidates in lines that
    /// are mostly loaded by then.
    static let lead = 4
    /// Points whose cells are kept at once (a power of two above `2 * lead`).
    static let ringSize = 16

    /// `candidates(lat:lon:cache:into:)` for points `0 ..< count` in order, where `point(i)` is
    /// point `i`, or nil for a point not to look up; after point `i`, `ends[i]` is
    /// `result.count`. The same results as one call per point, found in a pipeline: a point's
    /// loads wait on one another (cell start, then items), and on a large index (L:
    /// 17 MB of cell starts, read at random) each of them misses the cache, so each is asked
    /// for a few points before it is needed (see `lead`).
    /// - Complexity: O(count x (levels + boxes listed in the points' cells)).
    @inline(__always)
    func candidates(count: Int, point: (Int) -> (lat: Double, lon: Double)?, cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>,
                    into result: inout ScratchBuffer<Int32>, ends: UnsafeMutableBufferPointer<Int32>) {
        let levelCount = levels.count
        guard levelCount > 0, let startBase = starts.baseAddress, let itemBase = items.baseAddress else {
            for i in 0..<count { ends[i] = Int32(truncatingIfNeeded: result.count) }
            return
        }
        let lead = RegionIndex.Probe.lead, mask = RegionIndex.Probe.ringSize - 1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * RegionIndex.Probe.ringSize * levelCount) { rings in
            // ring[(i & mask) * levelCount + l]: point i's cell on level l and its fractions of
            // it (`cell(level:lat:lon:cache:)`), or -1; runs[...]: the cell's items, `start << 32 | end`
            // (read `lead` points ahead, kept for the last stage).
            let ring = UnsafeMutableBufferPointer(rebasing: rings[0..<(RegionIndex.Probe.ringSize * levelCount)])
            let runs = UnsafeMutableBufferPointer(rebasing: rings[(RegionIndex.Probe.ringSize * levelCount)...])
            for i in -2 * lead..<count {
                let ahead = i + 2 * lead
                if ahead < count {
                    let base = (ahead & mask) * levelCount
                    if let p = point(ahead), p.lat.isFinite, p.lon.isFinite {
                        for l in 0..<levelCount {
                            let found = cell(level: l, lat: p.lat, lon: p.lon, cache: cache)
                            ring[base + l] = found
                            if found >= 0 { prefetch(startBase + Self.cellIndex(found)) }
                        }
                    } else {
                        for l in 0..<levelCount { ring[base + l] = -1 }
                    }
                }
                let near = i + lead
                if near >= 0 && near < count {
                    let base = (near & mask) * levelCount
                    for l in 0..<levelCount where ring[base + l] >= 0 {
                        let c = Self.cellIndex(ring[base + l])
                        let s = Int(startBase[c]), e = Int(startBase[c + 1])
                        runs[base + l] = s << 32 | e
                        if e > s {
                            // Every line of the run (a run of 8 items spans 1 or 2).
                            let last = UnsafeRawPointer(itemBase + e) - 1
                            var at = UnsafeRawPointer(itemBase + s)
                            while at < last {
                                prefetch(at)
                                at += 64
                            }
                            prefetch(last)
                        }
                    }
                }
                guard i >= 0 else { continue }
                let base = (i & mask) * levelCount
                // A point skipped or not finite has -1 on every level.
                for l in 0..<levelCount where ring[base + l] >= 0 {
                    let q = Self.fractions(ring[base + l]), run = runs[base + l]
                    for k in (run >> 32)..<(run & 0xFFFF_FFFF) where itemBase[k].box.mayContain(q) {
                        result.append(itemBase[k].owner)
                    }
                }
                ends[i] = Int32(truncatingIfNeeded: result.count)
            }
        }
    }
}
