import Foundation

/// A multi-level hash grid over bounding boxes: a query for a point returns every entry whose box
/// contains it, at a cost that does not grow with the number of boxes (only with how many boxes
/// overlap near the point).
///
/// Each box goes to a level whose cell size (a power of two in degrees) is not below a quarter of
/// the box's larger side, so it touches at most 5 x 5 cells there; levels are a factor of 4 apart
/// (at most 20). A query makes one hash probe per non-empty level and checks the boxes listed in
/// that cell.
public struct RegionIndex: Sendable {
    struct Level: Sendable {
        var cellDeg: Double
        var invCell: Double
        var table: CellTable
        /// Entry indices grouped by cell (CSR), addressed by `table`.
        var entries: [Int32]
    }

    let boxes: [BoundingBox]
    let owners: [Int32]
    let levels: [Level]

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
        var perLevel: [Int: [(key: Int64, entry: Int32)]] = [:]
        for (k, n) in valid.enumerated() {
            let b = entries[n].box
            var exponent = base
            while exponent < wanted[k] { exponent += 2 }
            let inv = 1 / RegionIndex.cellSize(exponent)
            let x0 = RegionIndex.cellIndex(b.minLon + 180, inv), x1 = RegionIndex.cellIndex(b.maxLon + 180, inv)
            let y0 = RegionIndex.cellIndex(b.minLat + 90, inv), y1 = RegionIndex.cellIndex(b.maxLat + 90, inv)
            for y in y0...y1 {
                for x in x0...x1 {
                    perLevel[exponent, default: []].append((RegionIndex.key(x, y), Int32(n)))
                }
            }
        }
        var built: [Level] = []
        for exponent in perLevel.keys.sorted() {
            guard let pairs = perLevel[exponent] else { continue }
            let sorted = pairs.sorted { $0.key < $1.key || ($0.key == $1.key && $0.entry < $1.entry) }
            var table = CellTable(capacityFor: sorted.count)
            var list: [Int32] = []
            list.reserveCapacity(sorted.count)
            var i = 0
            while i < sorted.count {
                let key = sorted[i].key
                let start = list.count
                while i < sorted.count && sorted[i].key == key {
                    list.append(sorted[i].entry)
                    i += 1
                }
                table.insert(key: key, start: Int32(start), count: Int32(list.count - start))
            }
            let size = RegionIndex.cellSize(exponent)
            built.append(Level(cellDeg: size, invCell: 1 / size, table: table, entries: list))
        }
        levels = built
    }

    static func cellSize(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent, significand: 1) }

    @inline(__always) static func cellIndex(_ offset: Double, _ inv: Double) -> Int64 {
        Int64((offset * inv).rounded(.down))
    }

    @inline(__always) static func key(_ x: Int64, _ y: Int64) -> Int64 { (y << 32) | (x & 0xFFFF_FFFF) }

    /// Appends to `result` the owner of every box containing (lat, lon), each once per box.
    /// - Complexity: O(levels + boxes listed in the point's cells); independent of the total count.
    public func query(lat: Double, lon: Double, into result: inout [Int32]) {
        guard lat.isFinite, lon.isFinite else { return }
        for level in levels {
            let x = RegionIndex.cellIndex(lon + 180, level.invCell)
            let y = RegionIndex.cellIndex(lat + 90, level.invCell)
            guard let (start, count) = level.table.find(RegionIndex.key(x, y)) else { continue }
            level.entries.withUnsafeBufferPointer { list in
                boxes.withUnsafeBufferPointer { bx in
                    for k in Int(start)..<Int(start + count) {
                        let e = Int(list[k])
                        if bx[e].contains(lat: lat, lon: lon) { result.append(owners[e]) }
                    }
                }
            }
        }
    }

    /// How many boxes a query at (lat, lon) examines: the cost measure that must not grow with the
    /// number of boxes elsewhere.
    /// - Complexity: O(levels).
    public func examinedCount(lat: Double, lon: Double) -> Int {
        var n = 0
        for level in levels {
            let x = RegionIndex.cellIndex(lon + 180, level.invCell)
            let y = RegionIndex.cellIndex(lat + 90, level.invCell)
            if let (_, count) = level.table.find(RegionIndex.key(x, y)) { n += Int(count) }
        }
        return n
    }

    /// Brute force over every box, for tests: owners of the boxes containing the point.
    /// - Complexity: O(n).
    public func bruteForce(lat: Double, lon: Double) -> [Int32] {
        var out: [Int32] = []
        for (n, b) in boxes.enumerated() where b.contains(lat: lat, lon: lon) { out.append(owners[n]) }
        return out
    }
}
