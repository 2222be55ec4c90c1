import Foundation
import Synchronization

/// Per-polygon containment grids: the class of most fixes for a polygon from one grid cell, with
/// no edge looked at. Each grid is placed and sized when the crossing loop is compiled, and its
/// cells are computed when a fix first needs them (see `View.classify`): a polygon no fix comes
/// near never pays for its grid (100k polygons of which 90k are never visited built 0.25 s of
/// CPU and 18 MB of grids up front).
///
/// Each polygon classified by containment (`CompiledRegions.Method.polygonContainment`, hysteresis
/// 0 to 1 mm) or by the band fast path (`.polygonClass`, hysteresis above 1 mm) gets a grid of
/// up to 64 x 64 cells over its box grown by a margin `m`: 2 mm (`RegionGeometry.exactNearM`) for
/// containment, `h` for the band path. Each cell holds 2 bits: IN, OUT, or MIXED. A cell is IN or
/// OUT only when no edge comes within `m` of any point of the cell (the cell grown by a hundredth
/// of itself); then every fix the lookup puts in the cell gets that class, else (MIXED, and for
/// circles and negative hysteresis, which have no grid) the caller runs the classification it
/// ran before (`CompiledRegions.View.classify`).
///
/// Why the class is the exact one (`FixClass(depthM:hysteresisM:)` of the snapped exact depth,
/// which is also what the paths it stands in front of give):
///
/// 1. Distance. An edge lies in the box of its ends, and every piece of an edge cut into pieces
///    of at most two cells lies in the box of the piece's ends. A fix farther than `dLat` degrees in
///    latitude from a box has `|y| = R |dlat| > m` to every point of it in the local projection
///    of semantics.md 1; farther than `dLon = dLat / cos(phi)` in longitude, with `phi` the grid's
///    latitude farthest from the equator, it has `|x| = R cos(lat) |dlon| > m` (the fix's
///    `cos(lat)` is at least `cos(phi)`). `dLat` is `m` in degrees times `1 + 1e-6`, plus 1e-12
///    degree (0.1 micrometre): far above the rounding of the projected coordinates the exact
///    path computes (a few nanometres at |lon| <= 180), and `cos(phi)` is taken 1e-9 smaller
///    than computed. A piece is marked on every cell its grown box reaches, each cell range
///    widened by 0.01 cell; the lookup's cell index `Int((lat - south) * invCellLat)` is off from
///    the true position by less than 1e-4 cell (a cell is at least 2 m / 64 wide in latitude,
///    and the subtraction errs by at most 1.5e-14 degree), so a fix the lookup puts in a cell not
///    marked by a piece is farther than `m` from that piece. Hence for a fix in an unmarked cell,
///    every edge is farther than `m`: the exact depth is `+-dist` with `dist > m >= 2 mm` (or
///    `> h`), not snapped, and its class is IN when inside, OUT when outside.
/// 2. Containment. An unmarked cell (grown by 0.01 cell) meets no edge, so it lies in one face of
///    the plane cut by the rings' edges: the even-odd parity is the same at every point of it.
///    The exact path computes that parity exactly for a fix farther than nanometres from every
///    edge (its crossing abscissa errs by a few units in the last place, and the fix is on the
///    other side of a wrong crossing only within that of the edge). So the label is the parity
///    at the cell's centre, computed with the exact path's crossing test on the row through it.
/// 3. Outside the grid. A fix outside the grown box is farther than `m` from every vertex box,
///    so from every edge, and outside every ring: OUT.
///
/// Cells: about `cellsPerEdge` per edge (at least 256, at most 4,096), shaped to the box in
/// metres within at most 32 columns and 128 rows; 2 bits each, one 64-bit word per row (about
/// 180 bytes for a 32-vertex polygon). A grid is not built for a polygon reaching within a degree
/// of a pole (its longitude margin would be unbounded).
///
/// Lazy cells and threads: the replay threads share one `PolygonCellGrids`. Each grid has a state
/// (not built, being built, built); the first thread that needs a grid takes it by a
/// compare-and-exchange, writes its words (its own rows of the one word buffer) and publishes
/// them with a releasing store; a thread that finds the grid built reads the words after an
/// acquiring load, and one that finds it being built classifies that fix as it would without a
/// grid (the same class, by the argument above). The cells are those an eager build writes.
struct PolygonCellGrids: Sendable {
    /// One region's grid: `rows x columns` cells over latitudes `south ...` and longitudes
    /// `west ...`; cell (row, column) is the 2-bit code at bit `2 column` of word
    /// `wordStart + row`. `rows == 0`: no grid.
    struct Header: Sendable {
        var south: Double
        var west: Double
        var invCellLat: Double
        var invCellLon: Double
        var rows: Int32
        var columns: Int32
        var wordStart: Int

        static let none = Header(south: 0, west: 0, invCellLat: 0, invCellLon: 0, rows: 0, columns: 0, wordStart: 0)
    }

    /// Cell codes.
    static let mixed: UInt64 = 0, inCode: UInt64 = 1, outCode: UInt64 = 2

    /// Cells per edge of the polygon, before the bounds below.
    static let cellsPerEdge = 16
    static let minCells = 256, maxCells = 4_096, maxColumns = 32, maxRows = 128

    let headers: FixedBuffer<Header>
    /// The cells, written lazily.
    private let cells: LazyCells
    /// The regions the grids are of (kept alive with them: a grid is built from their chunks).
    private let regions: CompiledRegions
    private let marginFactor: Double

    /// The grids of `regions`' polygons (one header per region; circles and negative hysteresis
    /// have none): each grid's place and size, many regions in chunks on all cores, and room for
    /// its words in region order; the words themselves are computed on first use. `marginFactor`
    /// scales every margin: 1 except in the tests that show a smaller margin gives wrong classes.
    /// - Complexity: O(regions + chunks), spread over the cores; each grid then costs
    ///   O(rows + edges x cells each edge reaches + rows each edge spans) once, if it is used.
    init(regions: CompiledRegions, marginFactor: Double = 1) {
        let view = regions.view
        let n = view.records.count
        let shapes: [Shape?] = HugePages.array(count: n) { out in
            CompiledGeometry.inChunks(n) { range in
                for r in range { (out.baseAddress.unsafelyUnwrapped + r).initialize(to: Shape(view, r, marginFactor: marginFactor)) }
            }
        }
        var total = 0
        headers = FixedBuffer(count: n) { out in
            for r in 0..<n {
                var header = Header.none
                if let shape = shapes[r] {
                    header = Header(south: shape.south, west: shape.west, invCellLat: shape.invLat, invCellLon: shape.invLon,
                                    rows: Int32(shape.rows), columns: Int32(shape.columns), wordStart: total)
                    total += shape.rows
                }
                (out.baseAddress.unsafelyUnwrapped + r).initialize(to: header)
            }
        }
        cells = LazyCells(words: total, grids: n)
        self.regions = regions
        self.marginFactor = marginFactor
    }

    /// Plain pointers for the per-fix loop; valid while `self` is alive.
    var view: View {
        View(headers: headers.elements, words: cells.words, states: cells.states, regions: regions.view, marginFactor: marginFactor)
    }

    /// Builds every grid not built yet (the lookup builds each when it first needs it).
    func buildAll() {
        withExtendedLifetime(self) {
            let v = view
            for r in 0..<v.headers.count where v.headers[r].rows > 0 { _ = v.built(r) }
        }
    }

    /// Grid states: not built, being built, built.
    static let notBuilt: UInt8 = 0, building: UInt8 = 1, isBuilt: UInt8 = 2

    /// The word buffer (mapped from the system: the pages of grids never built are never
    /// touched, so never resident) and one state per region.
    private final class LazyCells: @unchecked Sendable {
        let words: UnsafeMutablePointer<UInt64>
        let states: UnsafeMutablePointer<Atomic<UInt8>>
        private let wordBytes: Int
        private let grids: Int
        private let mapped: Bool

        init(words count: Int, grids: Int) {
            wordBytes = max(1, count) * MemoryLayout<UInt64>.stride
            if let p = mmap(nil, wordBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED {
                words = p.bindMemory(to: UInt64.self, capacity: max(1, count))
                mapped = true
            } else {
                // No mapping: plain memory (resident once written, as before).
                words = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, count))
                mapped = false
            }
            self.grids = grids
            states = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: max(1, grids))
            for r in 0..<grids { (states + r).initialize(to: Atomic(PolygonCellGrids.notBuilt)) }
        }

        deinit {
            if mapped { munmap(UnsafeMutableRawPointer(words), wordBytes) } else { words.deallocate() }
            states.deinitialize(count: grids)
            states.deallocate()
        }
    }

    struct View {
        let headers: UnsafeBufferPointer<Header>
        let words: UnsafeMutablePointer<UInt64>
        let states: UnsafeMutablePointer<Atomic<UInt8>>
        let regions: CompiledRegions.View
        let marginFactor: Double

        /// The class of a fix for region `r` when its grid decides it (see `PolygonCellGrids`),
        /// else nil (a MIXED cell, no grid, or a grid another thread is building): then classify
        /// with the region's own method. Builds the grid when it is first needed.
        /// - Complexity: O(1), and once per grid the cost of building it.
        @inline(__always)
        func classify(_ r: Int, latDeg: Double, lonDeg: Double) -> FixClass? {
            let g = headers[r]
            if g.rows == 0 { return nil }
            let fy = (latDeg - g.south) * g.invCellLat
            let fx = (lonDeg - g.west) * g.invCellLon
            if !(fy >= 0 && fy < Double(g.rows) && fx >= 0 && fx < Double(g.columns)) { return .outside }
            if states[r].load(ordering: .acquiring) != PolygonCellGrids.isBuilt && !built(r) { return nil }
            let code = (words[g.wordStart &+ Int(fy)] >> UInt64(Int(fx) << 1)) & 3
            return code == PolygonCellGrids.inCode ? .inside : (code == PolygonCellGrids.outCode ? .outside : nil)
        }

        /// Builds grid `r` unless it is built or being built; true when it is built.
        @inline(never)
        func built(_ r: Int) -> Bool {
            let taken = states[r].compareExchange(expected: PolygonCellGrids.notBuilt, desired: PolygonCellGrids.building, ordering: .acquiring)
            if !taken.exchanged { return taken.original == PolygonCellGrids.isBuilt }
            if let shape = Shape(regions, r, marginFactor: marginFactor) {
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * PolygonCellGrids.maxRows) { scratch in
                    Builder(scratch).fill(shape, vertices: regions.vertices, chunks: Shape.chunks(regions, r), words: words + headers[r].wordStart)
                }
            }
            states[r].store(PolygonCellGrids.isBuilt, ordering: .releasing)
            return true
        }
    }

    /// A grid's place and size, from its polygon's edge chunks and margin (see the type's
    /// comment): nil when no grid is built (no edges, a bad margin, near a pole, degenerate).
    private struct Shape {
        var south: Double, west: Double
        var invLat: Double, invLon: Double, cellLat: Double
        /// The margin in degrees of latitude and of longitude.
        var dLat: Double, dLon: Double
        var rows: Int, columns: Int

        /// Region `r`'s chunks.
        static func chunks(_ regions: CompiledRegions.View, _ r: Int) -> UnsafeBufferPointer<RegionGeometry.EdgeChunk> {
            let rec = regions.records[r]
            return UnsafeBufferPointer(rebasing: regions.chunks[rec.chunkStart..<rec.chunkEnd])
        }

        /// Region `r`'s grid shape, nil when it has none (a circle, a negative hysteresis, or as below).
        /// - Complexity: O(chunks).
        init?(_ regions: CompiledRegions.View, _ r: Int, marginFactor: Double) {
            let rec = regions.records[r]
            switch rec.method {
            case .polygonContainment: self.init(chunks: Shape.chunks(regions, r), marginM: RegionGeometry.exactNearM * marginFactor)
            case .polygonClass: self.init(chunks: Shape.chunks(regions, r), marginM: rec.hysteresisM * marginFactor)
            case .circleTerm, .circleDepth, .polygonDepth: return nil
            }
        }

        /// - Complexity: O(chunks).
        init?(chunks: UnsafeBufferPointer<RegionGeometry.EdgeChunk>, marginM: Double) {
            guard !chunks.isEmpty, marginM >= 0, marginM.isFinite else { return nil }
            var box = chunks[0].box
            var edges = 0
            for c in chunks {
                box.minLat = min(box.minLat, c.box.minLat); box.maxLat = max(box.maxLat, c.box.maxLat)
                box.minLon = min(box.minLon, c.box.minLon); box.maxLon = max(box.maxLon, c.box.maxLon)
                edges += c.end - c.first
            }
            // The margin in degrees (see the type's comment, point 1).
            dLat = marginM / Earth.radiusM * (180 / Double.pi) * (1 + 1e-6) + 1e-12
            south = box.minLat - dLat
            let north = box.maxLat + dLat
            let polar = max(abs(south), abs(north))
            guard polar < 89, box.minLon.isFinite, box.maxLon.isFinite else { return nil }
            dLon = dLat / (cos(Earth.radians(polar)) * (1 - 1e-9))
            west = box.minLon - dLon
            let east = box.maxLon + dLon
            // Cells about square in metres.
            let target = min(PolygonCellGrids.maxCells, max(PolygonCellGrids.minCells, edges * PolygonCellGrids.cellsPerEdge))
            let aspect = (east - west) * cos(Earth.radians((south + north) / 2)) / (north - south)
            columns = min(PolygonCellGrids.maxColumns, max(1, Int((Double(target) * aspect).squareRoot().rounded())))
            rows = min(PolygonCellGrids.maxRows, max(1, target / columns))
            invLat = Double(rows) / (north - south)
            invLon = Double(columns) / (east - west)
            cellLat = (north - south) / Double(rows)
            guard invLat.isFinite, invLon.isFinite, invLat > 0, invLon > 0 else { return nil }
        }
    }

    /// Builds a grid in scratch memory of `2 maxRows` words.
    private struct Builder {
        /// Per row: bit x set when some edge comes within the margin of cell x.
        let marked: UnsafeMutableBufferPointer<UInt64>
        /// Per row: bit q flipped for every crossing of the row's centre line that lies east of
        /// exactly the first q cell centres.
        let flips: UnsafeMutableBufferPointer<UInt64>

        init(_ scratch: UnsafeMutableBufferPointer<UInt64>) {
            marked = UnsafeMutableBufferPointer(rebasing: scratch[0..<PolygonCellGrids.maxRows])
            flips = UnsafeMutableBufferPointer(rebasing: scratch[PolygonCellGrids.maxRows..<(2 * PolygonCellGrids.maxRows)])
        }

        /// The cell at position `f` (in cells from the axis' origin) on an axis whose last
        /// cell is `last`, clamped to the axis.
        @inline(__always)
        static func index(_ f: Double, _ last: Double) -> Int {
            Int(f <= 0 ? 0 : (f >= last ? last : f))
        }

        /// The low 32 bits of `x` moved to the even bits of the result.
        @inline(__always)
        static func spread(_ x: UInt64) -> UInt64 {
            var v = x & 0xFFFF_FFFF
            v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
            v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
            v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
            v = (v | v << 2) & 0x3333_3333_3333_3333
            return (v | v << 1) & 0x5555_5555_5555_5555
        }

        /// Writes the `shape.rows` words of a polygon's grid at `words`.
        /// - Complexity: O(rows + edges x cells each edge reaches + rows each edge spans).
        func fill(_ shape: Shape, vertices v: UnsafeBufferPointer<RegionGeometry.Vertex>,
                  chunks: UnsafeBufferPointer<RegionGeometry.EdgeChunk>, words: UnsafeMutablePointer<UInt64>) {
            let south = shape.south, west = shape.west, invLat = shape.invLat, invLon = shape.invLon, cellLat = shape.cellLat
            let dLat = shape.dLat, dLon = shape.dLon, rows = shape.rows, columns = shape.columns
            marked.baseAddress.unsafelyUnwrapped.update(repeating: 0, count: rows)
            flips.baseAddress.unsafelyUnwrapped.update(repeating: 0, count: rows)

            // Positions in cells, the margins in cells widened by 0.01 cell (point 1).
            let mLat = dLat * invLat + 0.01, mLon = dLon * invLon + 0.01
            let lastRow = Double(rows - 1), lastColumn = Double(columns - 1)
            for c in chunks {
                var i = c.first
                var j = i == c.ringFirst ? c.ringEnd - 1 : i - 1
                while i < c.end {
                    let a = v[j], b = v[i]
                    let ya = (a.latDeg - south) * invLat, yb = (b.latDeg - south) * invLat
                    let xa = (a.lonDeg - west) * invLon, xb = (b.lonDeg - west) * invLon
                    // Point 1: mark every cell a piece of the edge (at most 2 cells long) reaches
                    // within the margin.
                    let span = max(abs(yb - ya), abs(xb - xa))
                    let pieces = span < 2 ? 1 : min(256, Int(span / 2) + 1)
                    var y0 = ya, x0 = xa
                    for p in 1...pieces {
                        let t = Double(p) / Double(pieces)
                        let y1 = p == pieces ? yb : ya + t * (yb - ya)
                        let x1 = p == pieces ? xb : xa + t * (xb - xa)
                        let bits = (UInt64(2) << UInt64(Builder.index(max(x0, x1) + mLon, lastColumn)))
                            &- (UInt64(1) << UInt64(Builder.index(min(x0, x1) - mLon, lastColumn)))
                        var y = Builder.index(min(y0, y1) - mLat, lastRow)
                        let yEnd = Builder.index(max(y0, y1) + mLat, lastRow)
                        while y <= yEnd {
                            marked[y] |= bits
                            y += 1
                        }
                        y0 = y1
                        x0 = x1
                    }
                    // Point 2: where the edge crosses the rows' centre lines, by the exact
                    // path's test, recorded as a flip after the cell centres west of it. The
                    // test can hold only for rows whose centre (position y + 0.5) lies between
                    // the ends.
                    let yi = b.latDeg, yj = a.latDeg
                    var y = Builder.index(min(ya, yb) - 0.51, lastRow)
                    let yEnd = Builder.index(max(ya, yb) - 0.49, lastRow)
                    while y <= yEnd {
                        defer { y += 1 }
                        let yc = south + (Double(y) + 0.5) * cellLat
                        if (yi > yc) != (yj > yc) {
                            let xCross = b.lonDeg + (yc - yi) / (yj - yi) * (a.lonDeg - b.lonDeg)
                            // The number of centres west of the crossing; far from an integer
                            // for every centre that is labelled (it is farther than half a cell).
                            let q = ((xCross - west) * invLon - 0.5).rounded(.up)
                            let k = q <= 0 ? 0 : (q >= Double(columns) ? columns : Int(q))
                            flips[y] ^= UInt64(1) << UInt64(k)
                        }
                    }
                    j = i
                    i += 1
                }
            }

            // Label the unmarked cells by the parity at their centres. The centre of cell x has
            // east of it the crossings flipped at bits above x; every ring crosses a line an even
            // number of times (the straddle test changes sides an even number of times around a
            // closed ring), so that parity is also the XOR of bits 0 ... x: a prefix XOR.
            let valid = (UInt64(2) << UInt64(columns - 1)) &- 1
            for y in 0..<rows {
                var parity = flips[y]
                parity ^= parity << 1
                parity ^= parity << 2
                parity ^= parity << 4
                parity ^= parity << 8
                parity ^= parity << 16
                let clean = ~marked[y] & valid
                let inside = parity & clean, outside = ~parity & clean
                (words + y).initialize(to: Builder.spread(inside) &* PolygonCellGrids.inCode | Builder.spread(outside) &* PolygonCellGrids.outCode)
            }
        }
    }
}
