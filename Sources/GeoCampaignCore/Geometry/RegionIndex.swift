import Foundation

/// A multi-level hash grid over bounding boxes: a query for a point returns every entry whose box
/// contains it, at a cost that does not grow with the number of boxes (only with how many boxes
/// overlap near the point).
///
/// Each box goes to a level whose cell size (a power of two in degrees) is not below a quarter of
/// the box's larger side, so it touches at most 5 x 5 cells there; levels are a factor of 4 apart
/// (at most 20). A query makes one hash probe per non-empty level and checks the boxes listed in
/// that cell. All levels live in three flat buffers (levels, hash slots, listed boxes), so a
/// query touches no reference-counted storage (see `Probe`).
public struct RegionIndex: Sendable {
    struct Level: Sendable {
        /// 1 / cell size in degrees.
        var invCell: Double
        /// This level's tile table: slots `slotBase ..< slotBase + mask + 1` of `slots`.
        var slotBase: Int
        var mask: Int
        var shift: Int
    }

    /// One listing of a box in one cell: the entry number (4 bytes, so that 100,000 regions
    /// listed in about 20 cells each cost a few MB; the box and owner are read from `entryBoxes`
    /// and `entryOwners`).
    struct Item: Sendable {
        var entry: Int32
    }

    let boxes: [BoundingBox]
    let owners: [Int32]
    /// `boxes` and `owners` as flat buffers for queries.
    let entryBoxes: FixedBuffer<BoundingBox>
    let entryOwners: FixedBuffer<Int32>
    let levels: FixedBuffer<Level>
    /// Tile tables of every level.
    let slots: FixedBuffer<CellTable.Slot>
    /// Cell runs, 16 per tile (see `CellTable`).
    let runs: FixedBuffer<CellTable.Run>
    /// Items grouped by cell, addressed by the runs.
    let items: FixedBuffer<Item>

    /// Cell sizes are powers of two in degrees between 2^minExponent and 2^maxExponent.
    static let minExponent = -30
    static let maxExponent = 9

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
    /// - Complexity: O(n log n) for n boxes.
    public init(entries: [(box: BoundingBox, owner: Int32)]) {
        boxes = entries.map(\.box)
        owners = entries.map(\.owner)
        entryBoxes = FixedBuffer(boxes)
        entryOwners = FixedBuffer(owners)
        let valid = entries.indices.filter { entries[$0].box.minLat <= entries[$0].box.maxLat && entries[$0].box.minLon <= entries[$0].box.maxLon }
        let wanted = valid.map { n -> Int in
            let b = entries[n].box
            return RegionIndex.desiredExponent(max(b.maxLat - b.minLat, b.maxLon - b.minLon))
        }
        let base = wanted.min() ?? RegionIndex.minExponent
        // Boxes by level (levels are 2 exponents apart from the finest), each level's boxes in
        // entry order; then per level a counting sort of the boxes' cells into runs, so items of
        // a cell stay in entry order. O(n + cells) with one tile look-up per tile a box touches.
        var levelOf: [Int: [Int]] = [:]
        for (k, n) in valid.enumerated() {
            var exponent = base
            while exponent < wanted[k] { exponent += 2 }
            levelOf[exponent, default: []].append(n)
        }
        var builtLevels: [Level] = []
        var builtSlots: [CellTable.Slot] = []
        var builtRuns: [CellTable.Run] = []
        var builtItems: [Item] = []
        for exponent in levelOf.keys.sorted() {
            guard let members = levelOf[exponent] else { continue }
            let inv = 1 / RegionIndex.cellSize(exponent)
            // Cell ranges and tiles (tile index in order of first appearance).
            var tileIndex: [Int64: Int] = [:]
            tileIndex.reserveCapacity(members.count)
            var tileKeys: [Int64] = []
            var ranges: [(x0: Int64, x1: Int64, y0: Int64, y1: Int64)] = []
            ranges.reserveCapacity(members.count)
            for n in members {
                let b = entries[n].box
                let r = (RegionIndex.cellIndex(b.minLon + 180, inv), RegionIndex.cellIndex(b.maxLon + 180, inv),
                         RegionIndex.cellIndex(b.minLat + 90, inv), RegionIndex.cellIndex(b.maxLat + 90, inv))
                ranges.append(r)
                for ty in (r.2 >> CellTable.tileShift)...(r.3 >> CellTable.tileShift) {
                    for tx in (r.0 >> CellTable.tileShift)...(r.1 >> CellTable.tileShift) {
                        let key = RegionIndex.key(tx, ty)
                        if tileIndex[key] == nil {
                            tileIndex[key] = tileKeys.count
                            tileKeys.append(key)
                        }
                    }
                }
            }
            let runBase = builtRuns.count
            var counts = [Int32](repeating: 0, count: tileKeys.count * CellTable.cellsPerTile)
            // The last tile looked up: a box's cells mostly share a tile.
            var lastTile = CellTable.empty, lastIndex = 0
            func cellSlot(_ x: Int64, _ y: Int64) -> Int {
                let key = CellTable.tileKey(x, y)
                if key != lastTile {
                    lastTile = key
                    lastIndex = tileIndex[key] ?? 0
                }
                return lastIndex * CellTable.cellsPerTile + CellTable.offsetInTile(x, y)
            }
            for r in ranges {
                for y in r.y0...r.y1 { for x in r.x0...r.x1 { counts[cellSlot(x, y)] += 1 } }
            }
            var start = Int32(builtItems.count)
            var next = counts
            builtRuns.reserveCapacity(builtRuns.count + counts.count)
            for c in counts.indices {
                builtRuns.append(CellTable.Run(start: counts[c] > 0 ? start : 0, count: counts[c]))
                next[c] = start
                start += counts[c]
            }
            builtItems += repeatElement(Item(entry: 0), count: Int(start) - builtItems.count)
            builtItems.withUnsafeMutableBufferPointer { out in
                next.withUnsafeMutableBufferPointer { next in
                    for (k, n) in members.enumerated() {
                        let r = ranges[k]
                        let item = Item(entry: Int32(n))
                        for y in r.y0...r.y1 {
                            for x in r.x0...r.x1 {
                                let c = cellSlot(x, y)
                                out[Int(next[c])] = item
                                next[c] += 1
                            }
                        }
                    }
                }
            }
            let (capacity, shift) = CellTable.shape(tiles: tileKeys.count)
            let slotBase = builtSlots.count
            builtSlots += repeatElement(CellTable.Slot(key: CellTable.empty, base: 0), count: capacity)
            for (t, key) in tileKeys.enumerated() {
                let s = CellTable.find(key, in: builtSlots, base: slotBase, capacity: capacity, shift: shift)
                builtSlots[s] = CellTable.Slot(key: key, base: runBase + t * CellTable.cellsPerTile)
            }
            builtLevels.append(Level(invCell: inv, slotBase: slotBase, mask: capacity - 1, shift: shift))
        }
        levels = FixedBuffer(builtLevels)
        slots = FixedBuffer(builtSlots)
        runs = FixedBuffer(builtRuns)
        items = FixedBuffer(builtItems)
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
        Probe(levels: levels.elements, slots: slots.elements, runs: runs.elements, items: items.elements,
              boxes: entryBoxes.elements, owners: entryOwners.elements)
    }

    /// Appends to `result` the owner of every box containing (lat, lon), each once per box.
    /// - Complexity: O(levels + boxes listed in the point's cells); independent of the total count.
    public func query(lat: Double, lon: Double, into result: inout [Int32]) {
        withExtendedLifetime(self) { probe.query(lat: lat, lon: lon, into: &result) }
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
        for (n, b) in boxes.enumerated() where b.contains(lat: lat, lon: lon) { out.append(owners[n]) }
        return out
    }
}
