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

    /// One listing of a box in one cell: the box itself (so a query reads it in place) and its owner.
    struct Item: Sendable {
        var box: BoundingBox
        var owner: Int32
    }

    let boxes: [BoundingBox]
    let owners: [Int32]
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
        let valid = entries.indices.filter { entries[$0].box.minLat <= entries[$0].box.maxLat && entries[$0].box.minLon <= entries[$0].box.maxLon }
        let wanted = valid.map { n -> Int in
            let b = entries[n].box
            return RegionIndex.desiredExponent(max(b.maxLat - b.minLat, b.maxLon - b.minLon))
        }
        let base = wanted.min() ?? RegionIndex.minExponent
        // (level exponent, cell y, cell x, entry) for every cell of every box, sorted once.
        var listings: [(exponent: Int32, y: Int64, x: Int64, entry: Int32)] = []
        listings.reserveCapacity(valid.count * 4)
        for (k, n) in valid.enumerated() {
            let b = entries[n].box
            var exponent = base
            while exponent < wanted[k] { exponent += 2 }
            let inv = 1 / RegionIndex.cellSize(exponent)
            let x0 = RegionIndex.cellIndex(b.minLon + 180, inv), x1 = RegionIndex.cellIndex(b.maxLon + 180, inv)
            let y0 = RegionIndex.cellIndex(b.minLat + 90, inv), y1 = RegionIndex.cellIndex(b.maxLat + 90, inv)
            for y in y0...y1 {
                for x in x0...x1 { listings.append((Int32(exponent), y, x, Int32(n))) }
            }
        }
        listings.sort { ($0.exponent, $0.y, $0.x, $0.entry) < ($1.exponent, $1.y, $1.x, $1.entry) }
        var builtLevels: [Level] = []
        var builtSlots: [CellTable.Slot] = []
        var builtRuns: [CellTable.Run] = []
        var builtItems: [Item] = []
        builtItems.reserveCapacity(listings.count)
        var i = 0
        while i < listings.count {
            let exponent = listings[i].exponent
            var end = i
            var tiles = Set<Int64>()
            while end < listings.count && listings[end].exponent == exponent {
                tiles.insert(CellTable.tileKey(listings[end].x, listings[end].y))
                end += 1
            }
            let (capacity, shift) = CellTable.shape(tiles: tiles.count)
            let slotBase = builtSlots.count
            builtSlots += repeatElement(CellTable.Slot(key: CellTable.empty, base: 0), count: capacity)
            while i < end {
                let x = listings[i].x, y = listings[i].y
                let start = builtItems.count
                while i < end && listings[i].x == x && listings[i].y == y {
                    let n = Int(listings[i].entry)
                    builtItems.append(Item(box: entries[n].box, owner: entries[n].owner))
                    i += 1
                }
                let tile = CellTable.tileKey(x, y)
                let s = CellTable.find(tile, in: builtSlots, base: slotBase, capacity: capacity, shift: shift)
                if builtSlots[s].key != tile {
                    builtSlots[s] = CellTable.Slot(key: tile, base: builtRuns.count)
                    builtRuns += repeatElement(CellTable.Run(start: 0, count: 0), count: CellTable.cellsPerTile)
                }
                builtRuns[builtSlots[s].base + CellTable.offsetInTile(x, y)] = CellTable.Run(start: Int32(start), count: Int32(builtItems.count - start))
            }
            let size = RegionIndex.cellSize(Int(exponent))
            builtLevels.append(Level(invCell: 1 / size, slotBase: slotBase, mask: capacity - 1, shift: shift))
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
    var probe: Probe { Probe(levels: levels.elements, slots: slots.elements, runs: runs.elements, items: items.elements) }

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
