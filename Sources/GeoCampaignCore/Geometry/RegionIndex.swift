import Foundation

/// A multi-level grid over bounding boxes: a query for a point returns every entry whose box
/// contains it, at a cost that does not grow with the number of boxes (only with how many boxes
/// overlap near the point).
///
/// Each box goes to a level whose cell size (a power of two in degrees) is not below a quarter of
/// the box's larger side, so it touches at most 5 x 5 cells there; levels are a factor of 4 apart
/// (at most 20). A level whose boxes lie in a compact area (a city) keeps a dense array of cells
/// over that area, so a point's cell is one memory access away; a level spread wider (a
/// continent's dealers) keeps a hash table of 4 x 4-cell tiles instead. Each cell lists its
/// boxes as 8-byte items holding the entry's owner and the part of its box inside the cell,
/// rounded outward to 1/256 of the cell, so a query reads one cell start and one run of items
/// per level, and nothing that depends on an item (see `Probe`).
public struct RegionIndex: Sendable {
    struct Level: Sendable {
        /// 1 / cell size in degrees.
        var invCell: Double
        /// The level's first cell in `starts`. Dense levels: cells `x0 ..< x0 + width`,
        /// `y0 ..< y0 + height` are `runBase + (y - y0) * width + (x - x0)`; width 0 for a tiled level.
        var x0: Int64
        var y0: Int64
        var width: Int64
        var height: Int64
        var runBase: Int
        /// Tiled levels: this level's tile table is slots `slotBase ..< slotBase + mask + 1` of `slots`.
        var slotBase: Int
        var mask: Int
        var shift: Int
    }

    /// One listing of a box in one cell: the entry's owner and the part of the entry's box
    /// inside the cell, in 256ths of the cell rounded outward (8 bytes; L's 100,000 regions are
    /// listed about 913,000 times, 7.3 MB). A cell's candidates come from its run of items
    /// alone, with no load that depends on an item.
    struct Item: Sendable {
        var owner: Int32
        var box: CellBox
    }

    /// A box within one cell of a level, in 256ths of the cell on each axis, rounded outward: a
    /// point of the cell whose fraction of the cell (`CellBox.fraction`) is `(fy, fx)` may lie
    /// in the box only if `lat0 <= fy <= lat1` and `lon0 <= fx <= lon1`. Every point of the
    /// exact box passes; one within 1/256 of the cell of it (less than 1/256 of the box's
    /// larger side, see `desiredExponent`) may pass too, which the exact test or the
    /// classification then rules out.
    struct CellBox: Sendable {
        var lat0: UInt8
        var lat1: UInt8
        var lon0: UInt8
        var lon1: UInt8

        /// `box`'s fractions at its own edge cells on a level with `1 / cell size` `inv`, where
        /// `(x0...x1, y0...y1)` are the box's cells on that level: its lower latitude bound in
        /// cell row `y0`, its upper one in row `y1`, and so on (`clipped` gives each cell's part).
        init(edgesOf box: BoundingBox, inv: Double, range r: (x0: Int64, x1: Int64, y0: Int64, y1: Int64)) {
            lat0 = CellBox.fraction((box.minLat + 90) * inv, r.y0)
            lat1 = CellBox.fraction((box.maxLat + 90) * inv, r.y1)
            lon0 = CellBox.fraction((box.minLon + 180) * inv, r.x0)
            lon1 = CellBox.fraction((box.maxLon + 180) * inv, r.x1)
        }

        /// The box's part in cell (x, y), `self` being its edges (`init(edgesOf:inv:range:)`):
        /// the whole cell on a side where the cell is not the box's edge cell.
        @inline(__always) func clipped(x: Int64, y: Int64, range r: (x0: Int64, x1: Int64, y0: Int64, y1: Int64)) -> CellBox {
            var part = self
            if y != r.y0 { part.lat0 = 0 }
            if y != r.y1 { part.lat1 = 255 }
            if x != r.x0 { part.lon0 = 0 }
            if x != r.x1 { part.lon1 = 255 }
            return part
        }

        /// The 256th of cell `c` in which `v` (an offset times the level's `inv`, computed as
        /// `cellIndex` computes it) lies, clamped to the cell. Monotone in `v` for a given `c`
        /// (each step rounds monotonically), which is what makes the boxes outward: a point at or
        /// above a box's lower bound gets a fraction at or above the bound's.
        @inline(__always) static func fraction(_ v: Double, _ c: Int64) -> UInt8 {
            let f = (v - Double(c)) * 256
            if !(f > 0) { return 0 }
            return f >= 255 ? 255 : UInt8(f)
        }

        /// Whether the point with fractions `q` (`lat << 8 | lon`) may lie in the box.
        @inline(__always) func mayContain(_ q: Int) -> Bool {
            let fy = UInt8(truncatingIfNeeded: q >> 8), fx = UInt8(truncatingIfNeeded: q)
            return fy >= lat0 && fy <= lat1 && fx >= lon0 && fx <= lon1
        }
    }

    /// A box rounded outward to floats (16 bytes instead of 32): the check never misses a point
    /// the exact box holds, and may let through one within a float's step of it (about 2 m).
    /// (The crossing's inside boxes.)
    struct FloatBox: Sendable {
        var minLat: Float
        var maxLat: Float
        var minLon: Float
        var maxLon: Float

        init(_ box: BoundingBox) {
            minLat = FloatBox.down(box.minLat)
            maxLat = FloatBox.up(box.maxLat)
            minLon = FloatBox.down(box.minLon)
            maxLon = FloatBox.up(box.maxLon)
        }

        /// The largest float not above `x`.
        static func down(_ x: Double) -> Float {
            let f = Float(x)
            return Double(f) > x ? f.nextDown : f
        }

        /// The smallest float not below `x`.
        static func up(_ x: Double) -> Float {
            let f = Float(x)
            return Double(f) < x ? f.nextUp : f
        }

        /// Whether the (outward-rounded) box holds the point.
        @inline(__always) func mayContain(lat: Double, lon: Double) -> Bool {
            lat >= Double(minLat) && lat <= Double(maxLat) && lon >= Double(minLon) && lon <= Double(maxLon)
        }
    }

    /// Per entry: the exact box, for the exact query, and the owner.
    let entryBoxes: FixedBuffer<BoundingBox>
    let owners: FixedBuffer<Int32>
    /// The entries' boxes (for tests).
    var boxes: [BoundingBox] { Array(entryBoxes.elements) }
    let levels: FixedBuffer<Level>
    /// Tile tables of the tiled levels.
    let slots: FixedBuffer<CellTable.Slot>
    /// Every level's cells: cell `c` lists items `starts[c] ..< starts[c + 1]` (each level's
    /// cells are followed by one more start), 4 bytes per cell; a tiled level's cells come 16
    /// per tile (see `CellTable`).
    let starts: FixedBuffer<Int32>
    /// Items grouped by cell, addressed by `starts`.
    let items: FixedBuffer<Item>

    /// Cell sizes are powers of two in degrees between 2^minExponent and 2^maxExponent.
    static let minExponent = -30
    static let maxExponent = 9

    /// A level is dense when its boxes' area holds at most this many cells, or at most
    /// `denseItemFactor` cells per item listed on it: a dense level's memory (4 bytes per cell)
    /// stays within a small multiple of what its items take (a city's finest level is dense; a
    /// continent's regions are not).
    static let denseMinCells: Int64 = 1 << 16
    static let denseItemFactor: Int64 = 32

    /// The exponent of the smallest power-of-two cell not below a quarter of `extent` degrees.
    static func desiredExponent(_ extent: Double) -> Int {
        guard extent > 0 else { return minExponent }
        let e = Int((extent / 4).exponent) + ((extent / 4).significand > 1 ? 1 : 0)
        return min(maxExponent, max(minExponent, e))
    }

    /// Builds the index over `(box, owner)` pairs; `owner` is what queries return (a region index).
    /// A box must lie within latitudes -90...90 and longitudes -180...180 (see
    /// `BoundingBox.wrappedParts`).
    ///
    /// Levels are spaced by a factor of 4 from the finest cell any box wants, so boxes of similar
    /// size (a city's shops) share one level and a query makes one or two probes.
    /// - Complexity: O(n log n) for n boxes, plus the cells of dense levels (at most 8 per item).
    public init(entries: [(box: BoundingBox, owner: Int32)]) {
        // Written in place (no arrays copied into the buffers).
        entryBoxes = FixedBuffer(count: entries.count) { out in
            for k in entries.indices { out.initializeElement(at: k, to: entries[k].box) }
        }
        owners = FixedBuffer(count: entries.count) { out in
            for k in entries.indices { out.initializeElement(at: k, to: entries[k].owner) }
        }
        let valid = entries.indices.filter { entries[$0].box.minLat <= entries[$0].box.maxLat && entries[$0].box.minLon <= entries[$0].box.maxLon }
        let wanted = valid.map { n -> Int in
            let b = entries[n].box
            return RegionIndex.desiredExponent(max(b.maxLat - b.minLat, b.maxLon - b.minLon))
        }
        let base = wanted.min() ?? RegionIndex.minExponent
        // Boxes by level (levels are 2 exponents apart from the finest), each level's boxes in
        // entry order; then per level a counting sort of the boxes' cells, so items of
        // a cell stay in entry order. Level l (exponent base + 2 l) is levelOf[l]: an array of at
        // most 21, not a dictionary hashed once per box.
        var levelOf = [[Int]](repeating: [], count: (RegionIndex.maxExponent - base + 1) / 2 + 1)
        for (k, n) in valid.enumerated() { levelOf[(wanted[k] - base + 1) / 2].append(n) }
        // Every level is planned first (its cells and items counted), so that the cell starts
        // and the items are written once, in place, into buffers of their final size: building
        // them by appends and then copying them held a city's finest level (millions of cells)
        // two or three times.
        let plans = levelOf.indices.compactMap { l in
            levelOf[l].isEmpty ? nil : LevelPlan(exponent: base + 2 * l, members: levelOf[l], entries: entries)
        }
        let cellTotal = plans.reduce(0) { $0 + $1.cellCount + 1 }, itemTotal = plans.reduce(0) { $0 + $1.listed }
        var levels: [Level] = [], slots: [CellTable.Slot] = []
        var items: FixedBuffer<Item>?
        starts = FixedBuffer(count: cellTotal) { st in
            items = FixedBuffer(count: itemTotal) { out in
                var cellBase = 0, itemBase = 0
                for plan in plans {
                    var level = plan.level
                    level.runBase = cellBase
                    entries.withUnsafeBufferPointer { plan.fill(st, cellBase: cellBase, out, itemBase: itemBase, entries: $0) }
                    if level.width == 0 { plan.addSlots(&level, to: &slots) }
                    levels.append(level)
                    cellBase += plan.cellCount + 1
                    itemBase += plan.listed
                }
            }
        }
        self.items = items ?? FixedBuffer([])
        self.levels = FixedBuffer(levels)
        self.slots = FixedBuffer(slots)
    }

    /// One level to build: its boxes' cell ranges, whether its cells are dense or in tiles, and
    /// how many cells and items it takes.
    private struct LevelPlan {
        var level: Level
        let members: [Int]
        let ranges: [(x0: Int64, x1: Int64, y0: Int64, y1: Int64)]
        /// Items (cell listings) of the level.
        let listed: Int
        /// Cells (a tiled level's come 16 per tile).
        let cellCount: Int
        /// Tiled levels: the tiles in order of first appearance, and their numbers.
        let tileKeys: [Int64]
        let numbers: TileNumbers?

        init(exponent: Int, members: [Int], entries: [(box: BoundingBox, owner: Int32)]) {
            let inv = 1 / RegionIndex.cellSize(exponent)
            var ranges: [(x0: Int64, x1: Int64, y0: Int64, y1: Int64)] = []
            ranges.reserveCapacity(members.count)
            var lo = (x: Int64.max, y: Int64.max), hi = (x: Int64.min, y: Int64.min)
            var listed: Int64 = 0
            for n in members {
                let b = entries[n].box
                let r = (RegionIndex.cellIndex(b.minLon + 180, inv), RegionIndex.cellIndex(b.maxLon + 180, inv),
                         RegionIndex.cellIndex(b.minLat + 90, inv), RegionIndex.cellIndex(b.maxLat + 90, inv))
                ranges.append(r)
                lo = (min(lo.x, r.0), min(lo.y, r.2))
                hi = (max(hi.x, r.1), max(hi.y, r.3))
                listed += (r.1 - r.0 + 1) * (r.3 - r.2 + 1)
            }
            let width = hi.x - lo.x + 1, height = hi.y - lo.y + 1
            let (cells, overflow) = width.multipliedReportingOverflow(by: height)
            level = Level(invCell: inv, x0: lo.x, y0: lo.y, width: 0, height: 0, runBase: 0, slotBase: 0, mask: 0, shift: 0)
            self.members = members
            self.ranges = ranges
            self.listed = Int(listed)
            if !overflow && cells <= max(RegionIndex.denseMinCells, RegionIndex.denseItemFactor * listed) {
                level.width = width
                level.height = height
                cellCount = Int(cells)
                tileKeys = []
                numbers = nil
            } else {
                // Tiles are numbered in order of first appearance through an open-addressing table.
                var numbers = TileNumbers(expected: members.count)
                var tileKeys: [Int64] = []
                for r in ranges {
                    for ty in (r.y0 >> CellTable.tileShift)...(r.y1 >> CellTable.tileShift) {
                        for tx in (r.x0 >> CellTable.tileShift)...(r.x1 >> CellTable.tileShift) {
                            let key = RegionIndex.key(tx, ty)
                            if numbers.insert(key, number: tileKeys.count) { tileKeys.append(key) }
                        }
                    }
                }
                cellCount = tileKeys.count * CellTable.cellsPerTile
                self.tileKeys = tileKeys
                self.numbers = numbers
            }
        }

        /// Writes the level's `cellCount + 1` cell starts at `st[cellBase...]` and its `listed`
        /// items at `out[itemBase...]`, by a counting sort done in place in the starts (no other
        /// array as large as the cells): a cell's items in member order.
        func fill(_ st: UnsafeMutableBufferPointer<Int32>, cellBase base: Int, _ out: UnsafeMutableBufferPointer<Item>, itemBase: Int,
                  entries: UnsafeBufferPointer<(box: BoundingBox, owner: Int32)>) {
            if let numbers {
                var cells = TiledCells(numbers: numbers)
                fill(st, base, out, itemBase, entries, &cells)
            } else {
                var cells = DenseCells(x0: level.x0, y0: level.y0, width: level.width)
                fill(st, base, out, itemBase, entries, &cells)
            }
        }

        /// Two passes over the level's cells (zeroed, then the counts turned into starts) and two
        /// over its items (counted, then written in member order, each moving its cell's start
        /// up by one, so that it ends as the next cell's start). A box's fractions at its edges
        /// are computed once, not per cell.
        private func fill<Cells: LevelCells>(_ st: UnsafeMutableBufferPointer<Int32>, _ base: Int, _ out: UnsafeMutableBufferPointer<Item>,
                                             _ itemBase: Int, _ entries: UnsafeBufferPointer<(box: BoundingBox, owner: Int32)>,
                                             _ cells: inout Cells) {
            let first = Int32(itemBase)
            let s = st.baseAddress.unsafelyUnwrapped + base, items = out.baseAddress.unsafelyUnwrapped
            UnsafeMutableBufferPointer(start: s, count: cellCount + 1).initialize(repeating: 0)
            ranges.withUnsafeBufferPointer { ranges in
                members.withUnsafeBufferPointer { members in
                    // Counts at s[c + 1], then s[c + 1] is where cell c starts.
                    for r in ranges {
                        for y in r.y0...r.y1 { for x in r.x0...r.x1 { s[cells.cell(x, y) + 1] += 1 } }
                    }
                    var running = first
                    for c in stride(from: 1, through: cellCount, by: 1) {
                        let count = s[c]
                        s[c] = running
                        running += count
                    }
                    for k in members.indices {
                        let r = ranges[k], entry = entries[members[k]]
                        let edges = CellBox(edgesOf: entry.box, inv: level.invCell, range: r)
                        for y in r.y0...r.y1 {
                            for x in r.x0...r.x1 {
                                let c = cells.cell(x, y) + 1, at = Int(s[c])
                                s[c] = Int32(truncatingIfNeeded: at + 1)
                                (items + at).initialize(to: Item(owner: entry.owner, box: edges.clipped(x: x, y: y, range: r)))
                            }
                        }
                    }
                }
            }
            // s[c + 1] is now where cell c ends, the start of cell c + 1.
            s[0] = first
        }

        /// A tiled level's hash table over its tiles, appended to `slots`.
        func addSlots(_ level: inout Level, to slots: inout [CellTable.Slot]) {
            let (capacity, shift) = CellTable.shape(tiles: tileKeys.count)
            let slotBase = slots.count
            slots += repeatElement(CellTable.Slot(key: CellTable.empty, base: 0), count: capacity)
            for (t, key) in tileKeys.enumerated() {
                let s = CellTable.find(key, in: slots, base: slotBase, capacity: capacity, shift: shift)
                slots[s] = CellTable.Slot(key: key, base: level.runBase + t * CellTable.cellsPerTile)
            }
            level.slotBase = slotBase
            level.mask = capacity - 1
            level.shift = shift
        }
    }

    /// Where cell (x, y) of a level being built lies among the level's cells.
    private protocol LevelCells {
        mutating func cell(_ x: Int64, _ y: Int64) -> Int
    }

    /// A dense level's cells: row by row over its area.
    private struct DenseCells: LevelCells {
        let x0: Int64, y0: Int64, width: Int64

        @inline(__always) func cell(_ x: Int64, _ y: Int64) -> Int { Int((y - y0) * width + (x - x0)) }
    }

    /// A tiled level's cells: 16 per tile, tiles numbered by `TileNumbers`; the last tile looked
    /// up is kept (a box's cells mostly share a tile).
    private struct TiledCells: LevelCells {
        let numbers: TileNumbers
        var lastTile = CellTable.empty, lastIndex = 0

        init(numbers: TileNumbers) { self.numbers = numbers }

        @inline(__always) mutating func cell(_ x: Int64, _ y: Int64) -> Int {
            let key = CellTable.tileKey(x, y)
            if key != lastTile {
                lastTile = key
                lastIndex = numbers.number(of: key)
            }
            return lastIndex * CellTable.cellsPerTile + CellTable.offsetInTile(x, y)
        }
    }

    /// Tile keys to tile numbers while a tiled level is built: open addressing, no hashing of
    /// `Hasher`'s cost. Grows when half full.
    private struct TileNumbers {
        var keys: [Int64]
        var numbers: [Int32]
        var shift: Int
        var count = 0

        init(expected: Int) {
            let (capacity, shift) = CellTable.shape(tiles: expected)
            keys = [Int64](repeating: CellTable.empty, count: capacity)
            numbers = [Int32](repeating: 0, count: capacity)
            self.shift = shift
        }

        /// Gives `key` the number `number` unless it has one; true when it was added.
        mutating func insert(_ key: Int64, number: Int) -> Bool {
            var s = CellTable.home(key, shift: shift)
            let mask = keys.count - 1
            while keys[s] != CellTable.empty {
                if keys[s] == key { return false }
                s = (s + 1) & mask
            }
            keys[s] = key
            numbers[s] = Int32(truncatingIfNeeded: number)
            count += 1
            if count * 2 > keys.count { grow() }
            return true
        }

        /// The number of `key` (0 when it has none).
        func number(of key: Int64) -> Int {
            var s = CellTable.home(key, shift: shift)
            let mask = keys.count - 1
            while keys[s] != CellTable.empty {
                if keys[s] == key { return Int(numbers[s]) }
                s = (s + 1) & mask
            }
            return 0
        }

        private mutating func grow() {
            let old = zip(keys, numbers).filter { $0.0 != CellTable.empty }
            let (capacity, shift) = CellTable.shape(tiles: keys.count)
            keys = [Int64](repeating: CellTable.empty, count: capacity)
            numbers = [Int32](repeating: 0, count: capacity)
            self.shift = shift
            count = 0
            for (k, n) in old { _ = insert(k, number: Int(n)) }
        }
    }

    static func cellSize(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent, significand: 1) }

    /// `floor(offset * inv)`; a plain conversion when the product is non-negative (always, for
    /// coordinates in range), which is the floor there without a call to the C library.
    @inline(__always) static func cellIndex(_ offset: Double, _ inv: Double) -> Int64 {
        let v = offset * inv
        if v >= 0 && v < 4.0e18 { return Int64(v) }
        return Int64(v.rounded(.down))
    }

    @inline(__always) static func key(_ x: Int64, _ y: Int64) -> Int64 { (y << 32) | (x & 0xFFFF_FFFF) }

    /// A view of the index for hot loops: plain pointers into the index's buffers, valid while
    /// the index is alive (keep the index, or the engine holding it, alive around the loop).
    var probe: Probe {
        Probe(levels: levels.elements, slots: slots.elements, starts: starts.elements, items: items.elements)
    }

    /// Appends to `result` the owner of every box containing (lat, lon), each once per box, in
    /// entry order: the entries whose exact box holds the point among those of the owners the
    /// index gives as candidates (`Probe.candidates`). For tests: its answer equals
    /// `bruteForce` only if the candidates miss no owner whose box holds the point. The items
    /// hold no entry number (it would cost 4 bytes per item), so this scans the entries.
    /// - Complexity: O(levels + boxes listed in the point's cells + entries).
    public func query(lat: Double, lon: Double, into result: inout [Int32]) {
        withExtendedLifetime(self) {
            let cache = UnsafeMutableBufferPointer<CellCache>.allocate(capacity: max(1, levels.count))
            defer { cache.deallocate() }
            cache.initialize(repeating: CellCache())
            var near = ScratchBuffer<Int32>(capacity: 16)
            defer { near.free() }
            probe.candidates(lat: lat, lon: lon, cache: cache, into: &near)
            let owners = Set((0..<near.count).map { near[$0] })
            for (n, box) in entryBoxes.elements.enumerated() where owners.contains(self.owners.elements[n]) && box.contains(lat: lat, lon: lon) {
                result.append(self.owners.elements[n])
            }
        }
    }

    /// How many boxes a query at (lat, lon) examines: the cost measure that must not grow with the
    /// number of boxes elsewhere.
    /// - Complexity: O(levels).
    public func examinedCount(lat: Double, lon: Double) -> Int {
        withExtendedLifetime(self) {
            var n = 0
            probe.forEachCell(lat: lat, lon: lon) { _, count in n += count }
            return n
        }
    }

    /// Brute force over every box, for tests: owners of the boxes containing the point.
    /// - Complexity: O(n).
    public func bruteForce(lat: Double, lon: Double) -> [Int32] {
        var out: [Int32] = []
        for (n, b) in entryBoxes.elements.enumerated() where b.contains(lat: lat, lon: lon) { out.append(owners.elements[n]) }
        return out
    }
}
