import XCTest
@testable import GeoCampaignCore

final class RegionIndexTests: XCTestCase {
    /// Random circles and polygons (10 m to 50 km, some at the antimeridian and near the poles).
    static func randomRegions(_ n: Int, rng: inout SplitMix64, around centre: Coordinate? = nil, spreadDeg: Double = 0,
                              sizes: [Double] = [10, 50, 150, 400, 2_000, 50_000]) -> [Region] {
        (0..<n).map { i in
            let lat: Double, lon: Double
            if let centre {
                lat = centre.lat + (rng.unit() - 0.5) * spreadDeg
                lon = centre.lon + (rng.unit() - 0.5) * spreadDeg
            } else {
                switch i % 10 {
                case 0: lat = -60 + rng.unit() * 120; lon = rng.unit() < 0.5 ? 179.99 + rng.unit() * 0.01 : -180 + rng.unit() * 0.01
                case 1: lat = 88 + rng.unit() * 1.9; lon = -180 + rng.unit() * 360
                default: lat = 45 + rng.unit() * 0.2; lon = 10 + rng.unit() * 0.2
                }
            }
            let size = sizes[Int(rng.next() % UInt64(sizes.count))]
            let h = [0.0, 5, 20, 60][Int(rng.next() % 4)]
            if i % 3 == 0 && abs(lat) < 85 && abs(lon) < 179 {
                let dLat = size / Earth.radiusM * 180 / Double.pi
                let dLon = dLat / cos(lat * Double.pi / 180)
                let ring = (0..<5).map { k -> Coordinate in
                    let a = Double(k) / 5 * 2 * Double.pi
                    let s = 0.5 + rng.unit()
                    return Coordinate(lat: lat + dLat * s * sin(a), lon: lon + dLon * s * cos(a))
                }
                return Region(id: "p\(i)", shape: .polygon([Region.PolygonPart(outer: ring)]), hysteresisM: h)
            }
            return Region(id: "c\(i)", shape: .circle(center: Coordinate(lat: lat, lon: lon), radiusM: size), hysteresisM: h)
        }
    }

    func testIndexEqualsBruteForceAndReturnsEveryRegionNotOut() {
        var rng = SplitMix64(seed: 42)
        let regions = Self.randomRegions(600, rng: &rng)
        let engine = CrossingEngine(campaign: Campaign(id: "x", regions: regions, rules: [], offers: []), settings: Settings())
        var points: [Coordinate] = []
        for _ in 0..<20_000 {
            let r = regions[Int(rng.next() % UInt64(regions.count))]
            let b = RegionGeometry(r.shape).bounds
            points.append(Coordinate(lat: max(-90, min(90, b.minLat - 0.01 + rng.unit() * (b.maxLat - b.minLat + 0.02))),
                                     lon: max(-180, min(180, b.minLon - 0.01 + rng.unit() * (b.maxLon - b.minLon + 0.02)))))
        }
        // Boundary cases: box corners and edges exactly, points exactly at depth -h on circles.
        for box in engine.index.boxes.prefix(300) {
            points.append(Coordinate(lat: box.minLat, lon: box.minLon))
            points.append(Coordinate(lat: box.maxLat, lon: box.maxLon))
            points.append(Coordinate(lat: box.maxLat, lon: (box.minLon + box.maxLon) / 2))
            points.append(Coordinate(lat: (box.minLat + box.maxLat) / 2, lon: box.minLon))
        }
        for (i, region) in regions.enumerated().prefix(200) {
            if case let .circle(c, radius) = region.shape, abs(c.lat) < 80 {
                let h = engine.parameters.hysteresisM[i]
                points.append(Coordinate(lat: c.lat + (radius + h) / Earth.radiusM * 180 / Double.pi, lon: c.lon))
                points.append(Coordinate(lat: c.lat - (radius + h - 0.5) / Earth.radiusM * 180 / Double.pi, lon: c.lon))
            }
        }
        points += [Coordinate(lat: 90, lon: 0), Coordinate(lat: -90, lon: 180), Coordinate(lat: 0, lon: -180), Coordinate(lat: 0, lon: 180)]
        var buffer: [Int32] = []
        var notOutSeen = 0
        for p in points {
            buffer.removeAll()
            engine.index.query(lat: p.lat, lon: p.lon, into: &buffer)
            XCTAssertEqual(buffer.sorted(), engine.index.bruteForce(lat: p.lat, lon: p.lon).sorted(), "at \(p)")
            let returned = Set(buffer)
            XCTAssertEqual(returned.count, buffer.count, "a region returned twice at \(p)")
            for r in regions.indices where engine.fixClass(Fix(time: 0, lat: p.lat, lon: p.lon), region: r) != .outside {
                notOutSeen += 1
                XCTAssertTrue(returned.contains(Int32(r)), "region \(regions[r].id) is IN/BAND at \(p) but not returned")
            }
        }
        XCTAssertGreaterThan(notOutSeen, 1_000)
    }

    /// The same 10,000-region city (regions of 50-400 m), alone and then among 90,000 regions in other cities: a query in
    /// the first city examines the same boxes, so the cost per fix does not grow with the count.
    func testCostPerQueryIsFlatFrom10kTo100kRegions() {
        var rng = SplitMix64(seed: 3)
        let city = Coordinate(lat: 37.7, lon: -121.8)
        let sizes: [Double] = [50, 100, 200, 400]
        let base = Self.randomRegions(10_000, rng: &rng, around: city, spreadDeg: 0.3, sizes: sizes)
        var all = base
        for k in 1..<10 {
            let other = Coordinate(lat: city.lat - Double(k) * 1.5, lon: city.lon + Double(k) * 2)
            all += Self.randomRegions(10_000, rng: &rng, around: other, spreadDeg: 0.3, sizes: sizes)
        }
        XCTAssertEqual(all.count, 100_000)
        let small = CrossingEngine(campaign: Campaign(id: "s", regions: base, rules: [], offers: []), settings: Settings())
        let large = CrossingEngine(campaign: Campaign(id: "l", regions: all, rules: [], offers: []), settings: Settings())
        var examinedSmall = 0, examinedLarge = 0
        var queries: [Coordinate] = []
        for _ in 0..<20_000 {
            queries.append(Coordinate(lat: city.lat + (rng.unit() - 0.5) * 0.3, lon: city.lon + (rng.unit() - 0.5) * 0.3))
        }
        for q in queries {
            examinedSmall += small.index.examinedCount(lat: q.lat, lon: q.lon)
            examinedLarge += large.index.examinedCount(lat: q.lat, lon: q.lon)
        }
        XCTAssertEqual(examinedLarge, examinedSmall)
        // A uniform spread of 100,000 regions over ten times the area costs the same per query too.
        let spread = Self.randomRegions(100_000, rng: &rng, around: city, spreadDeg: 0.3 * 10.0.squareRoot(), sizes: sizes)
        let spreadEngine = CrossingEngine(campaign: Campaign(id: "u", regions: spread, rules: [], offers: []), settings: Settings())
        var examinedSpread = 0
        for q in queries { examinedSpread += spreadEngine.index.examinedCount(lat: q.lat, lon: q.lon) }
        XCTAssertLessThan(Double(examinedSpread), Double(examinedSmall) * 1.5)
        print("boxes examined per query: 10k city \(Double(examinedSmall) / Double(queries.count)), 100k spread \(Double(examinedSpread) / Double(queries.count))")
        XCTAssertLessThan(Double(examinedSmall) / Double(queries.count), 100, "boxes examined per query")
    }

    /// A city's regions (dense levels) plus a few far away (tiled levels): exact queries equal
    /// brute force, and the crossing loop's candidates (items' boxes in 256ths of a cell) hold
    /// every exact answer and nothing whose exact box is more than 1/256 of a cell away (a cell
    /// is below the box's larger side: `desiredExponent` and the levels' spacing).
    func testDenseAndTiledLevelsEqualBruteForceAndCandidatesCoverThem() {
        var rng = SplitMix64(seed: 77)
        let (engine, city) = Self.cityEngine(&rng)
        let index = engine.index
        XCTAssertTrue(index.levels.elements.contains { $0.width > 0 }, "a dense level")
        XCTAssertTrue(index.levels.elements.contains { $0.width == 0 }, "a tiled level")
        var points: [Coordinate] = []
        for _ in 0..<8_000 {
            points.append(Coordinate(lat: city.lat + (rng.unit() - 0.5) * 0.12, lon: city.lon + (rng.unit() - 0.5) * 0.12))
        }
        for box in index.boxes.prefix(400) {
            points.append(Coordinate(lat: box.minLat, lon: box.minLon))
            points.append(Coordinate(lat: box.maxLat, lon: box.maxLon))
            points.append(Coordinate(lat: box.maxLat.nextUp, lon: box.maxLon))
            points.append(Coordinate(lat: box.minLat, lon: box.minLon.nextDown))
        }
        let cache = UnsafeMutableBufferPointer<RegionIndex.CellCache>.allocate(capacity: index.levels.count)
        defer { cache.deallocate() }
        cache.initialize(repeating: RegionIndex.CellCache())
        var boxesOf: [Int32: [BoundingBox]] = [:]
        for (n, box) in index.boxes.enumerated() { boxesOf[index.owners.elements[n], default: []].append(box) }
        var exact: [Int32] = []
        var found = 0, extra = 0
        withExtendedLifetime(index) {
            let probe = index.probe
            for p in points {
                exact.removeAll()
                index.query(lat: p.lat, lon: p.lon, into: &exact)
                XCTAssertEqual(exact.sorted(), index.bruteForce(lat: p.lat, lon: p.lon).sorted(), "at \(p)")
                var near = ScratchBuffer<Int32>(capacity: 16)
                probe.candidates(lat: p.lat, lon: p.lon, cache: cache, into: &near)
                let candidates = (0..<near.count).map { near[$0] }
                near.free()
                XCTAssertTrue(Set(exact).isSubset(of: Set(candidates)), "at \(p)")
                found += exact.count
                for c in Set(candidates).subtracting(exact) {
                    extra += 1
                    let grown = (boxesOf[c] ?? []).contains {
                        let step = max($0.maxLat - $0.minLat, $0.maxLon - $0.minLon) / 256
                        return BoundingBox(minLat: $0.minLat - step, maxLat: $0.maxLat + step,
                                    minLon: $0.minLon - step, maxLon: $0.maxLon + step).contains(lat: p.lat, lon: p.lon)
                    }
                    XCTAssertTrue(grown, "candidate \(c) far from \(p)")
                }
            }
        }
        XCTAssertGreaterThan(found, 5_000)
        XCTAssertGreaterThan(extra, 0, "edge points just outside a box come back as candidates")
    }

    /// An engine over 1,200 random regions of a city (a dense level) and 100 spread over the
    /// globe (a tiled level), and the city's centre.
    static func cityEngine(_ rng: inout SplitMix64) -> (engine: CrossingEngine, city: Coordinate) {
        let city = Coordinate(lat: 47.37, lon: 8.54)
        var regions = randomRegions(1_200, rng: &rng, around: city, spreadDeg: 0.1, sizes: [40, 100, 250, 600])
        regions += randomRegions(100, rng: &rng, sizes: [100, 5_000])
        return (CrossingEngine(campaign: Campaign(id: "x", regions: regions, rules: [], offers: []), settings: Settings()), city)
    }

    /// Candidates of points `0 ..< points.count` by the pipelined probe, per point (nil points skipped).
    static func pipelined(_ probe: RegionIndex.Probe, _ points: [Coordinate?], cache: UnsafeMutableBufferPointer<RegionIndex.CellCache>) -> [[Int32]] {
        var near = ScratchBuffer<Int32>(capacity: 16)
        defer { near.free() }
        let ends = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, points.count))
        defer { ends.deallocate() }
        probe.candidates(count: points.count, point: { i in points[i].map { ($0.lat, $0.lon) } }, cache: cache, into: &near, ends: ends)
        var start = 0
        return points.indices.map { i in
            defer { start = Int(ends[i]) }
            return (start..<Int(ends[i])).map { near[$0] }
        }
    }

    /// The pipelined probe of a whole track (the crossing's pass 1) gives every point the
    /// candidates of one probe per point, in the same order, on dense and tiled levels, for
    /// tracks shorter and longer than the pipeline, with points skipped and points not finite.
    /// The probe finds a point's cell and its 256th of the cell with one conversion per axis
    /// (`Probe.cell`); the same cell and fractions as `cellIndex` and `CellBox.fraction`, which
    /// the index's boxes are built with: on every level of dense and tiled indexes, at random
    /// points, on cell and 256th boundaries and a rounding either side of them, and at the ends
    /// of the coordinate ranges.
    func testCellAndFractionsEqualThoseTheBoxesAreBuiltWith() {
        var rng = SplitMix64(seed: 79)
        let (engine, city) = Self.cityEngine(&rng)
        let global = RegionIndex(entries: Self.randomRegions(300, rng: &rng).enumerated().map { (RegionGeometry($1.shape).bounds, Int32($0)) })
        var compared = 0
        for index in [engine.index, global] {
            withExtendedLifetime(index) {
                let probe = index.probe
                for l in 0..<probe.levels.count {
                    let inv = probe.levels[l].invCell
                    var points: [(Double, Double)] = [(-90, -180), (90, 180), (0, 0), (-90, 180), (90, -180)]
                    for _ in 0..<400 {
                        points.append((city.lat + (rng.unit() - 0.5) * 0.2, city.lon + (rng.unit() - 0.5) * 0.2))
                        points.append((-90 + rng.unit() * 180, -180 + rng.unit() * 360))
                        // A cell or 256th boundary on each axis, and its neighbours.
                        let by = (Double(Int((city.lat + 90) * inv * 256)) + Double(rng.next() % 512)) / 256 / inv - 90
                        let bx = (Double(Int((city.lon + 180) * inv * 256)) + Double(rng.next() % 512)) / 256 / inv - 180
                        for dy in [by.nextDown, by, by.nextUp] { for dx in [bx.nextDown, bx, bx.nextUp] { points.append((dy, dx)) } }
                    }
                    for (lat, lon) in points where lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 {
                        let found = probe.cell(level: l, lat: lat, lon: lon, cache: nil)
                        // The cell and fractions as computed before (and as the boxes are).
                        let x = RegionIndex.cellIndex(lon + 180, inv), y = RegionIndex.cellIndex(lat + 90, inv)
                        let q = Int(RegionIndex.CellBox.fraction((lat + 90) * inv, y)) << 8 | Int(RegionIndex.CellBox.fraction((lon + 180) * inv, x))
                        if found >= 0 { XCTAssertEqual(RegionIndex.Probe.fractions(found), q, "level \(l) at \(lat), \(lon)") }
                        // The cell: the same as a point at its centre (whose fractions are 128).
                        let centre = probe.cell(level: l, lat: (Double(y) + 0.5) / inv - 90, lon: (Double(x) + 0.5) / inv - 180, cache: nil)
                        XCTAssertEqual(found < 0 ? -1 : RegionIndex.Probe.cellIndex(found), centre < 0 ? -1 : RegionIndex.Probe.cellIndex(centre),
                                       "level \(l) at \(lat), \(lon)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 20_000)
    }

    /// The probe's conversion (`Probe.floor`) is `floor` on its whole domain `0 ..< 2^52`: at
    /// integers, halves and a rounding either side of them, where rounding to nearest differs.
    func testProbeFloorIsFloor() {
        var rng = SplitMix64(seed: 80)
        var values: [Double] = [0, 0.5, 1, 1.5, 2.5, 0x1p52.nextDown, 0x1p52 - 0.5, 0x1p51 + 0.5, 0x1p44 * 256 - 1]
        for _ in 0..<20_000 {
            let n = Double(rng.next() % (1 << UInt64(1 + rng.next() % 52)))
            for v in [n, n + 0.5, n + rng.unit()] where v < 0x1p52 { values += [v, v.nextUp, v.nextDown] }
        }
        for v in values where v >= 0 && v < 0x1p52 {
            XCTAssertEqual(RegionIndex.Probe.floor(v), Int64(v.rounded(.down)), "\(v)")
        }
    }

    func testPipelinedCandidatesEqualOneProbePerPoint() {
        var rng = SplitMix64(seed: 78)
        let (engine, city) = Self.cityEngine(&rng)
        let index = engine.index
        XCTAssertTrue(index.levels.elements.contains { $0.width > 0 } && index.levels.elements.contains { $0.width == 0 })
        let cache = UnsafeMutableBufferPointer<RegionIndex.CellCache>.allocate(capacity: index.levels.count)
        defer { cache.deallocate() }
        var compared = 0, nonEmpty = 0
        withExtendedLifetime(index) {
            let probe = index.probe
            for length in [0, 1, 2, 3, 5, 8, 9, 16, 17, 33, 500] {
                // A walk through the city (consecutive points close, as a user's fixes are), with
                // jumps, skipped points and points that are not finite.
                var p = Coordinate(lat: city.lat + (rng.unit() - 0.5) * 0.1, lon: city.lon + (rng.unit() - 0.5) * 0.1)
                let points: [Coordinate?] = (0..<length).map { _ in
                    p = rng.unit() < 0.05 ? Coordinate(lat: city.lat + (rng.unit() - 0.5) * 0.1, lon: city.lon + (rng.unit() - 0.5) * 0.1)
                        : Coordinate(lat: p.lat + (rng.unit() - 0.5) * 0.002, lon: p.lon + (rng.unit() - 0.5) * 0.002)
                    let u = rng.unit()
                    return u < 0.1 ? nil : (u < 0.12 ? Coordinate(lat: .nan, lon: p.lon) : p)
                }
                cache.initialize(repeating: RegionIndex.CellCache())
                let got = Self.pipelined(probe, points, cache: cache)
                cache.initialize(repeating: RegionIndex.CellCache())
                for (i, q) in points.enumerated() {
                    var near = ScratchBuffer<Int32>(capacity: 16)
                    if let q { probe.candidates(lat: q.lat, lon: q.lon, cache: cache, into: &near) }
                    let one = (0..<near.count).map { near[$0] }
                    near.free()
                    XCTAssertEqual(got[i], one, "point \(i) of \(length)")
                    compared += 1
                    if !one.isEmpty { nonEmpty += 1 }
                }
            }
        }
        XCTAssertEqual(compared, 594)
        XCTAssertGreaterThan(nonEmpty, 200, "most points of the walk have candidates")
    }
}
