import XCTest
import Foundation
import Synchronization
@testable import GeoCampaignCore

/// The per-polygon containment grids (`PolygonCellGrids`) against the exact class and against
/// the classification the crossing loop ran before them, on seeded random polygons (holes,
/// twisted rings, MultiPolygons; tiny, city-sized and huge) and on points bisected onto the
/// thresholds near edges and vertices.
final class PolygonCellGridTests: XCTestCase {
    /// Hysteresis values: the containment path (0 to 1 mm) and the band path above it.
    static let hysteresisValues: [Double] = [0, 0.0005, 0.001, 0.0015, 0.01, 1, 20]

    /// Seeded random polygons at three scales: centimetres, the city's places, 50-400 km.
    static func polygons(_ rng: inout SplitMix64, count: Int) -> [Region.Shape] {
        (0..<count).map { k in
            switch k % 4 {
            case 0: return PolygonClassificationTests.randomPolygon(&rng, scale: 1e-3)
            case 1: return PolygonClassificationTests.randomPolygon(&rng, scale: 400, maxVertices: 400)
            default: return PolygonClassificationTests.randomPolygon(&rng)
            }
        }
    }

    /// A crossing core over `shapes`, all at hysteresis `h`.
    static func core(_ shapes: [Region.Shape], h: Double) -> CrossingCore {
        let n = shapes.count
        return CrossingCore(geometries: shapes.map(RegionGeometry.init), hysteresisM: Array(repeating: h, count: n),
                            confirmMs: Array(repeating: 0, count: n), group: Array(repeating: 0, count: n),
                            campaign: Array(repeating: 0, count: n), localRegion: (0..<n).map { Int32($0) },
                            groups: [CrossingCore.Group(maxAccuracyM: 100, maxGapMs: 1_000_000)], campaignCount: 1)
    }

    /// Points that test a grid: anywhere in and around the box, on its cell boundaries, near
    /// vertices (down to 1e-9 degree) and within millimetres of edges on both sides.
    static func points(_ shape: Region.Shape, _ header: PolygonCellGrids.Header?, _ rng: inout SplitMix64) -> [Coordinate] {
        guard case let .polygon(parts) = shape else { return [] }
        let rings = parts.flatMap { [$0.outer] + $0.holes }
        let vertices = rings.flatMap { $0 }
        let b = RegionGeometry(shape).bounds
        let m = 1 / Earth.radiusM * 180 / Double.pi
        var out: [Coordinate] = []
        let w = b.maxLon - b.minLon, hgt = b.maxLat - b.minLat
        for _ in 0..<120 {
            out.append(Coordinate(lat: b.minLat - 0.1 * hgt + rng.unit() * 1.2 * hgt, lon: b.minLon - 0.1 * w + rng.unit() * 1.2 * w))
        }
        if let g = header, g.rows > 0 {
            for _ in 0..<40 {
                let row = Double(rng.next() % UInt64(g.rows + 1)), column = Double(rng.next() % UInt64(g.columns + 1))
                let lat = g.south + row / g.invCellLat, lon = g.west + column / g.invCellLon
                out += [Coordinate(lat: lat, lon: lon), Coordinate(lat: lat.nextDown, lon: lon.nextDown),
                        Coordinate(lat: lat, lon: g.west + rng.unit() * Double(g.columns) / g.invCellLon)]
            }
        }
        for k in 0..<80 {
            let v = vertices[Int(rng.next() % UInt64(vertices.count))]
            let s = [1e-5, 1e-7, 1e-8, 1e-9][k % 4]
            out.append(Coordinate(lat: v.lat + (rng.unit() - 0.5) * s, lon: v.lon + (rng.unit() - 0.5) * s))
        }
        for _ in 0..<80 {
            let ring = rings[Int(rng.next() % UInt64(rings.count))]
            let i = Int(rng.next() % UInt64(ring.count))
            let a = ring[i], e = ring[(i + 1) % ring.count]
            let f = rng.unit()
            let k = cos(a.lat * Double.pi / 180)
            let ey = (e.lat - a.lat) / m, ex = (e.lon - a.lon) * k / m
            let len = (ex * ex + ey * ey).squareRoot()
            guard len > 0 else { continue }
            // Along the normal, metres: within the 1 mm tolerance, about the 2 mm margin, and beyond.
            let offset = [-0.0025, -0.0019, -0.0011, -0.0009, -1e-7, 1e-7, 0.0009, 0.0011, 0.0019, 0.0025, 0.03, -0.03][Int(rng.next() % 12)]
            out.append(Coordinate(lat: a.lat + f * (e.lat - a.lat) + offset * ex / len * m,
                                  lon: a.lon + f * (e.lon - a.lon) - offset * ey / len * m / k))
        }
        return out
    }

    /// Compares the grids built with `marginFactor` with the exact class: returns how many
    /// points the grids decided and how many of those were wrong.
    static func compare(seed: UInt64, polygons count: Int, marginFactor: Double,
                        _ check: (_ got: FixClass, _ exact: FixClass, _ before: FixClass, _ what: String) -> Void)
        -> (decided: Int, inside: Int, outside: Int, wrong: Int, points: Int) {
        var rng = SplitMix64(seed: seed)
        let shapes = polygons(&rng, count: count)
        var decided = 0, inside = 0, outside = 0, wrong = 0, total = 0
        for h in hysteresisValues {
            let core = Self.core(shapes, h: h)
            let grids = PolygonCellGrids(regions: core.regions, marginFactor: marginFactor)
            withExtendedLifetime((core, grids)) {
                let view = grids.view, regions = core.regions.view
                for (r, shape) in shapes.enumerated() {
                    let g = RegionGeometry(shape)
                    for p in points(shape, view.headers[r], &rng) {
                        total += 1
                        guard let got = view.classify(r, latDeg: p.lat, lonDeg: p.lon) else { continue }
                        decided += 1
                        let exact = FixClass(depthM: g.placement(of: p).depthM, hysteresisM: h)
                        let la = Earth.radians(p.lat), lo = Earth.radians(p.lon)
                        let before = regions.classify(r, latDeg: p.lat, lonDeg: p.lon, latRad: la, lonRad: lo, cosLat: cos(la))
                        if got != exact || got != before { wrong += 1 }
                        if got == .inside { inside += 1 } else if got == .outside { outside += 1 }
                        check(got, exact, before, "polygon \(r) at \(p), h \(h), depth \(g.placement(of: p).depthM)")
                    }
                }
            }
        }
        return (decided, inside, outside, wrong, total)
    }

    func testGridClassEqualsExactClassOnRandomPolygons() {
        let result = Self.compare(seed: 15_101, polygons: 120, marginFactor: 1) { got, exact, before, what in
            XCTAssertEqual(got, exact, what)
            XCTAssertEqual(got, before, what)
        }
        XCTAssertEqual(result.wrong, 0)
        XCTAssertGreaterThan(result.points, 250_000)
        // The grids decide most points (not vacuous), on both sides.
        XCTAssertGreaterThan(result.decided, result.points / 3)
        XCTAssertGreaterThan(result.inside, 40_000)
        XCTAssertGreaterThan(result.outside, 40_000)
    }

    /// The negative control: grids built with a smaller margin than the proof needs give wrong
    /// classes on the same points (fixes within the tolerance or the band of an edge), so the
    /// test above can fail.
    func testGridWithTooSmallMarginIsCaught() {
        for factor in [0, 0.4] {
            let result = Self.compare(seed: 15_101, polygons: 120, marginFactor: factor) { _, _, _, _ in }
            XCTAssertGreaterThan(result.wrong, 20, "margin factor \(factor)")
        }
    }

    /// Points bisected onto the places where the exact class changes along an edge's normal
    /// (depth -h, -1 mm, +1 mm, +h, to within nanometres): the grid is either undecided there or
    /// right, on both sides and at the neighbours.
    func testGridAtBisectedThresholds() {
        var rng = SplitMix64(seed: 15_102)
        let shapes = Self.polygons(&rng, count: 80)
        var thresholds = 0, decided = 0
        for h in [0, 0.0005, 0.002, 1] {
            let core = Self.core(shapes, h: h)
            withExtendedLifetime(core) {
                let view = core.cells.view
                for shape in shapes.enumerated() {
                    let g = RegionGeometry(shape.element)
                    guard case let .polygon(parts) = shape.element else { continue }
                    let ring = parts[0].outer
                    for _ in 0..<6 {
                        guard let (base, at) = PolygonClassificationTests.edgeNormal(ring, &rng) else { continue }
                        func exact(_ p: Coordinate) -> FixClass { FixClass(depthM: g.placement(of: p).depthM, hysteresisM: h) }
                        let reach = max(0.005, 2 * h)
                        for (lo0, hi0) in [(-reach, 0.0), (0.0, reach)] {
                            var lo = lo0, hi = hi0
                            let cLo = exact(at(lo))
                            if cLo == exact(at(hi)) { continue }
                            for _ in 0..<45 {
                                let mid = (lo + hi) / 2
                                if exact(at(mid)) == cLo { lo = mid } else { hi = mid }
                            }
                            thresholds += 1
                            for s in [lo, hi, lo - 1e-7, hi + 1e-7, lo - 1e-4, hi + 1e-4, lo - 0.01, hi + 0.01] {
                                let p = at(s)
                                guard let got = view.classify(shape.offset, latDeg: p.lat, lonDeg: p.lon) else { continue }
                                decided += 1
                                XCTAssertEqual(got, exact(p), "offset \(s) m from \(base), h \(h)")
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(thresholds, 1_000)
        XCTAssertGreaterThan(decided, 0)
    }

    /// Circles and negative hysteresis have no grid; a polygon's grid answers OUT far outside it.
    func testWhichRegionsHaveGrids() {
        let square = Region.Shape.polygon([Region.PolygonPart(outer: [Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1),
                                                                      Coordinate(lat: 1, lon: 1), Coordinate(lat: 1, lon: 0)])])
        let circle = Region.Shape.circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10)
        let polar = Region.Shape.polygon([Region.PolygonPart(outer: [Coordinate(lat: 89.5, lon: 0), Coordinate(lat: 89.5, lon: 1),
                                                                     Coordinate(lat: 89.9, lon: 1)])])
        for h in [0.0, 5] {
            let core = Self.core([square, circle, polar], h: h)
            withExtendedLifetime(core) {
                let view = core.cells.view
                XCTAssertEqual(view.classify(0, latDeg: 0.5, lonDeg: 0.5), .inside)
                XCTAssertEqual(view.classify(0, latDeg: 2, lonDeg: 0.5), .outside)
                XCTAssertEqual(view.classify(0, latDeg: 0.5, lonDeg: -1), .outside)
                XCTAssertNil(view.classify(0, latDeg: 0, lonDeg: 0.5), "on the edge")
                XCTAssertNil(view.classify(1, latDeg: 0, lonDeg: 0))
                XCTAssertNil(view.classify(2, latDeg: 89.6, lonDeg: 0.9))
            }
        }
        let core = Self.core([square], h: -1)
        withExtendedLifetime(core) { XCTAssertNil(core.cells.view.classify(0, latDeg: 0.5, lonDeg: 0.5)) }
    }

    /// Grids of many regions are placed in chunks on all cores; they are those of one serial pass:
    /// the first 8,000 of 9,000 regions (8,192 and more are placed in parallel, fewer on one
    /// thread) have the same headers, word starts included, and once built the same words.
    func testGridsPlacedInParallelAreThoseOfOneSerialPass() {
        let shapes = Self.manyShapes()
        let serialCount = 8_000
        XCTAssertLessThan(serialCount, CompiledGeometry.parallelFrom)
        XCTAssertGreaterThanOrEqual(shapes.count, CompiledGeometry.parallelFrom)
        let all = Self.core(shapes, h: 0), serial = Self.core(Array(shapes[..<serialCount]), h: 0)
        all.cells.buildAll()
        serial.cells.buildAll()
        withExtendedLifetime((all, serial)) {
            let a = all.cells.view, b = serial.cells.view
            let gridded = Self.sameHeaders(a, b, count: serialCount)
            XCTAssertGreaterThan(gridded, 6_000)
            let words = Self.wordCount(b)
            XCTAssertEqual(Array(UnsafeBufferPointer(start: a.words, count: words)), Array(UnsafeBufferPointer(start: b.words, count: words)))
            XCTAssertGreaterThan(words, 10 * gridded)
        }
    }

    /// Grids built lazily by two threads classifying at once, in different orders, are those
    /// built one by one; every class a grid gave is the class of the grid built up front and the
    /// exact class; no grid is left without cells (a build that skipped some grids fails here).
    func testGridsBuiltLazilyOnTwoThreadsAreThoseBuiltUpFront() {
        let shapes = Self.manyShapes()
        let geometries = shapes.map(RegionGeometry.init)
        let lazy = Self.core(shapes, h: 0), eager = Self.core(shapes, h: 0)
        eager.cells.buildAll()
        withExtendedLifetime((lazy, eager)) {
            let l = lazy.cells.view, e = eager.cells.view
            let n = shapes.count
            XCTAssertEqual(Self.wordCount(l), Self.wordCount(e))
            // Before any fix: no grid is built, its words are zero pages.
            XCTAssertTrue((0..<Self.wordCount(l)).allSatisfy { l.words[$0] == 0 })
            let wrong = LockedCounter()
            DispatchQueue.concurrentPerform(iterations: 2) { t in
                var rng = SplitMix64(seed: 15_404 &+ UInt64(t))
                for k in 0..<n {
                    let r = t == 0 ? k : n - 1 - k
                    let h = e.headers[r]
                    guard h.rows > 0 else { continue }
                    for _ in 0..<4 {
                        // A point inside the grid's box.
                        let lat = h.south + rng.unit() * Double(h.rows) / h.invCellLat
                        let lon = h.west + rng.unit() * Double(h.columns) / h.invCellLon
                        guard let got = l.classify(r, latDeg: lat, lonDeg: lon) else { continue }
                        let exact = FixClass(depthM: geometries[r].placement(of: Coordinate(lat: lat, lon: lon)).depthM, hysteresisM: 0)
                        if got != e.classify(r, latDeg: lat, lonDeg: lon) || got != exact { wrong.add() }
                    }
                }
            }
            XCTAssertEqual(wrong.value, 0)
            let gridded = Self.sameHeaders(l, e, count: n)
            let empty = (0..<n).filter { r in
                let h = l.headers[r]
                return h.rows > 0 && (0..<Int(h.rows)).allSatisfy { l.words[h.wordStart + $0] == 0 }
            }.count
            XCTAssertGreaterThan(gridded, 6_000)
            XCTAssertLessThan(empty, gridded / 100, "grids with no IN or OUT cell")
            XCTAssertTrue((0..<n).allSatisfy { e.headers[$0].rows == 0 || l.states[$0].load(ordering: .acquiring) == PolygonCellGrids.isBuilt })
            let words = Self.wordCount(e)
            XCTAssertEqual(Array(UnsafeBufferPointer(start: l.words, count: words)), Array(UnsafeBufferPointer(start: e.words, count: words)))
        }
    }

    /// 9,000 seeded random polygons and circles.
    static func manyShapes() -> [Region.Shape] {
        var rng = SplitMix64(seed: 15_303)
        let circle = Region.Shape.circle(center: Coordinate(lat: 48.1, lon: 11.5), radiusM: 80)
        return (0..<9_000).map { k in k % 7 == 3 ? circle : PolygonClassificationTests.randomPolygon(&rng) }
    }

    /// Words of all grids of `v`.
    static func wordCount(_ v: PolygonCellGrids.View) -> Int {
        v.headers.reduce(0) { $0 + Int($1.rows) }
    }

    /// Asserts the first `count` headers of `a` and `b` are equal; returns how many have a grid.
    static func sameHeaders(_ a: PolygonCellGrids.View, _ b: PolygonCellGrids.View, count: Int) -> Int {
        var gridded = 0
        for r in 0..<count {
            let x = a.headers[r], y = b.headers[r]
            XCTAssertTrue(x.south == y.south && x.west == y.west && x.invCellLat == y.invCellLat && x.invCellLon == y.invCellLon
                          && x.rows == y.rows && x.columns == y.columns && x.wordStart == y.wordStart, "header of region \(r)")
            if y.rows > 0 { gridded += 1 }
        }
        return gridded
    }
}

/// A counter two test threads add to.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
