import XCTest
@testable import GeoCampaignCore

/// The polygon fast path (edge chunks, early BAND) against the exact depth, on real polygons:
/// Zürich's 12 districts (700-1560 vertices each) and OSM multipolygons with holes.
final class PolygonClassificationTests: XCTestCase {
    static let places = TestData.url("places")

    static func realPolygons() throws -> [Region] {
        let districts = try ConformanceHistory.importRegions(url: places.appendingPathComponent("zurich/stzh.adm_stadtkreise_a.json"), idProperty: "bezeichnung")
        let osm = try ConformanceHistory.importRegions(url: places.appendingPathComponent("osm-multipolygons/osm_multipolygons.geojson"))
        return districts + osm
    }

    func testFastClassEqualsDepthClassOnRealPolygons() throws {
        let regions = try Self.realPolygons()
        XCTAssertEqual(regions.count, 15)
        var rng = SplitMix64(seed: 9)
        var compared = 0, band = 0, inside = 0
        for region in regions {
            let g = RegionGeometry(region.shape)
            guard case let .polygon(parts) = region.shape else { XCTFail("not a polygon"); continue }
            let vertices = parts.flatMap { [$0.outer] + $0.holes }.flatMap { $0 }
            for k in 0..<3_000 {
                let h = [5.0, 20, 50][k % 3]
                let p: Coordinate
                if k % 2 == 0 {
                    let b = g.bounds
                    p = Coordinate(lat: b.minLat - 0.001 + rng.unit() * (b.maxLat - b.minLat + 0.002),
                                   lon: b.minLon - 0.001 + rng.unit() * (b.maxLon - b.minLon + 0.002))
                } else {
                    let v = vertices[Int(rng.next() % UInt64(vertices.count))]
                    p = Coordinate(lat: v.lat + (rng.unit() - 0.5) * 0.002, lon: v.lon + (rng.unit() - 0.5) * 0.003)
                }
                let d = g.placement(of: p).depthM
                if abs(d - h) < 0.01 || abs(d + h) < 0.01 { continue }
                let la = p.lat * Double.pi / 180, lo = p.lon * Double.pi / 180
                let fast = g.polygonClass(hysteresisM: h, latDeg: p.lat, lonDeg: p.lon, latRad: la, lonRad: lo, cosLat: cos(la))
                let want = FixClass(depthM: d, hysteresisM: h)
                XCTAssertEqual(fast, want, "\(region.id) at \(p), depth \(d), h \(h)")
                compared += 1
                if want == .band { band += 1 }
                if want == .inside { inside += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 40_000)
        XCTAssertGreaterThan(band, 2_000)
        XCTAssertGreaterThan(inside, 5_000)
        XCTAssertNil(RegionGeometry(.circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10))
            .polygonClass(hysteresisM: 20, latDeg: 0, lonDeg: 0, latRad: 0, lonRad: 0, cosLat: 1))
        XCTAssertNil(RegionGeometry(regions[0].shape).polygonClass(hysteresisM: 0, latDeg: 0, lonDeg: 0, latRad: 0, lonRad: 0, cosLat: 1))
    }

    /// The Zürich Google history across the 12 districts: the engine equals the literal reference.
    func testZurichHistoryAcrossDistrictsMatchesReference() throws {
        let districts = Array(try Self.realPolygons().prefix(12))
        let fixes = try RealTrackTests.googleFixes()
        for tracking in [Tracking(), Tracking(hysteresisM: 50, confirmMs: 120_000), Tracking(hysteresisM: 5, confirmMs: 0, maxGapMs: 600_000)] {
            let campaign = Campaign(id: "zurich", tracking: tracking, regions: districts, rules: [], offers: [])
            let tEnd = fixes.last?.time ?? 0
            let got = CrossingEngine(campaign: campaign, settings: Settings()).visits(fixes: fixes, tEnd: tEnd)
            let want = CrossingReferenceTests.reference(campaign: campaign, settings: Settings(), fixes: fixes, tEnd: tEnd)
            XCTAssertEqual(got, want, "\(tracking)")
            XCTAssertGreaterThanOrEqual(Set(got.map(\.region)).count, 2, "the track crosses district boundaries")
        }
    }

    // MARK: - The containment path (hysteresis 0 to the boundary tolerance)

    /// A random polygon around (45, 10): a star-shaped outer ring of 3-`maxVertices` vertices (some
    /// rings are twisted, as official data can be), sometimes a hole, sometimes a second part.
    /// `scale` multiplies the radius (20-420 m at 1) and `maxVertices` bounds the outer ring.
    static func randomPolygon(_ rng: inout SplitMix64, scale: Double = 1, maxVertices: Int = 80) -> Region.Shape {
        let m = 1 / Earth.radiusM * 180 / Double.pi
        let cLat = 45 + (rng.unit() - 0.5) * 0.01, cLon = 10 + (rng.unit() - 0.5) * 0.01
        func ring(_ lat: Double, _ lon: Double, _ radius: Double, _ k: Int, twisted: Bool) -> [Coordinate] {
            (0..<k).map { i in
                var a = Double(i) / Double(k) * 2 * Double.pi
                if twisted && i % 5 == 2 { a += 3 / Double(k) * 2 * Double.pi }
                let r = radius * (0.5 + 0.5 * rng.unit())
                return Coordinate(lat: lat + r * m * sin(a), lon: lon + r * m * cos(a) / cos(lat * Double.pi / 180))
            }
        }
        let radius = (20 + rng.unit() * 400) * scale
        let outer = ring(cLat, cLon, radius, 3 + Int(rng.next() % UInt64(maxVertices - 2)), twisted: rng.unit() < 0.2)
        let holes = rng.unit() < 0.3 ? [ring(cLat, cLon, radius * 0.2, 3 + Int(rng.next() % 10), twisted: false)] : []
        var parts = [Region.PolygonPart(outer: outer, holes: holes)]
        if rng.unit() < 0.2 {
            parts.append(Region.PolygonPart(outer: ring(cLat + 3 * radius * m, cLon, radius / 2, 3 + Int(rng.next() % 20), twisted: false)))
        }
        return .polygon(parts)
    }

    private func exactClass(_ g: RegionGeometry, _ p: Coordinate, _ h: Double) -> FixClass {
        FixClass(depthM: g.placement(of: p).depthM, hysteresisM: h)
    }

    /// With the fix in radians exactly as `placement(of:)` and the crossing loop compute it.
    private func containmentClass(_ g: RegionGeometry, _ p: Coordinate, _ h: Double) -> FixClass? {
        let la = Earth.radians(p.lat), lo = Earth.radians(p.lon)
        return g.polygonContainmentClass(hysteresisM: h, latDeg: p.lat, lonDeg: p.lon, latRad: la, lonRad: lo, cosLat: cos(la))
    }

    /// Seeded random polygons, points anywhere in and around their boxes and near their vertices:
    /// the containment path equals the exact class at h = 0, 0.5 mm and 1 mm, with no point
    /// left out near a threshold.
    func testContainmentClassEqualsDepthClassOnRandomPolygons() {
        var rng = SplitMix64(seed: 15_001)
        var compared = 0, inside = 0, outside = 0
        for _ in 0..<300 {
            let shape = Self.randomPolygon(&rng)
            let g = RegionGeometry(shape)
            guard case let .polygon(parts) = shape else { continue }
            let vertices = parts.flatMap { [$0.outer] + $0.holes }.flatMap { $0 }
            let b = g.bounds
            for k in 0..<300 {
                let p: Coordinate
                if k % 2 == 0 {
                    p = Coordinate(lat: b.minLat - 0.0005 + rng.unit() * (b.maxLat - b.minLat + 0.001),
                                   lon: b.minLon - 0.0005 + rng.unit() * (b.maxLon - b.minLon + 0.001))
                } else {
                    let v = vertices[Int(rng.next() % UInt64(vertices.count))]
                    let s = [1e-4, 1e-6, 1e-8][k % 3]
                    p = Coordinate(lat: v.lat + (rng.unit() - 0.5) * s, lon: v.lon + (rng.unit() - 0.5) * s)
                }
                for h in [0, 0.0005, 0.001] {
                    let want = exactClass(g, p, h)
                    XCTAssertEqual(containmentClass(g, p, h), want, "at \(p), h \(h), depth \(g.placement(of: p).depthM)")
                    compared += 1
                    if want == .inside { inside += 1 } else if want == .outside { outside += 1 }
                }
            }
        }
        XCTAssertGreaterThan(compared, 250_000)
        XCTAssertGreaterThan(inside, 50_000)
        XCTAssertGreaterThan(outside, 50_000)
    }

    /// Points bisected onto the thresholds that matter at small h: along the normal through a
    /// random point of a random edge, the places where the exact class changes (depth -1 mm and
    /// +1 mm, where snapping starts and ends) are found by bisection to within a few nanometres,
    /// and the containment path must agree with the exact class on both sides of each and at
    /// its neighbours. A path that trusted containment within 2 mm of an edge fails here.
    func testContainmentClassAtBisectedThresholds() {
        var rng = SplitMix64(seed: 15_002)
        var thresholds = 0, changes = 0
        for _ in 0..<150 {
            let shape = Self.randomPolygon(&rng)
            let g = RegionGeometry(shape)
            guard case let .polygon(parts) = shape else { continue }
            let ring = parts[0].outer
            for _ in 0..<10 {
                guard let (base, at) = Self.edgeNormal(ring, &rng) else { continue }
                for h in [0, 0.0005] {
                    // Bisect the offsets s (metres along the normal) in [-5 mm, 0] and [0, 5 mm] where the class changes.
                    for (lo0, hi0) in [(-0.005, 0.0), (0.0, 0.005)] {
                        var lo = lo0, hi = hi0
                        let cLo = exactClass(g, at(lo), h)
                        if cLo == exactClass(g, at(hi), h) { continue }
                        for _ in 0..<40 {
                            let mid = (lo + hi) / 2
                            if exactClass(g, at(mid), h) == cLo { lo = mid } else { hi = mid }
                        }
                        thresholds += 1
                        for s in [lo, hi, lo - 1e-6, hi + 1e-6, lo - 1e-4, hi + 1e-4] {
                            let p = at(s)
                            XCTAssertEqual(containmentClass(g, p, h), exactClass(g, p, h), "offset \(s) m from \(base), h \(h)")
                        }
                        if exactClass(g, at(lo), h) != exactClass(g, at(hi), h) { changes += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(thresholds, 1_000)
        XCTAssertEqual(changes, thresholds)
    }

    /// A random point of a random edge of `ring` (10-90% along it) and the points `s` metres
    /// from it along the edge's normal (in metres, turned back into degrees); nil for an edge
    /// under 1 cm.
    static func edgeNormal(_ ring: [Coordinate], _ rng: inout SplitMix64) -> (base: Coordinate, at: (Double) -> Coordinate)? {
        let m = 1 / Earth.radiusM * 180 / Double.pi
        let i = Int(rng.next() % UInt64(ring.count))
        let a = ring[i], b = ring[(i + 1) % ring.count]
        let f = 0.1 + 0.8 * rng.unit()
        let base = Coordinate(lat: a.lat + f * (b.lat - a.lat), lon: a.lon + f * (b.lon - a.lon))
        let k = cos(base.lat * Double.pi / 180)
        let ey = (b.lat - a.lat) / m, ex = (b.lon - a.lon) * k / m
        let len = (ex * ex + ey * ey).squareRoot()
        guard len > 0.01 else { return nil }
        return (base, { s in Coordinate(lat: base.lat + s * ex / len * m, lon: base.lon - s * ey / len * m / k) })
    }

    func testContainmentClassOnlyForPolygonsAtSmallHysteresis() {
        let square = RegionGeometry(.polygon([Region.PolygonPart(outer: [Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1),
                                                                          Coordinate(lat: 1, lon: 1), Coordinate(lat: 1, lon: 0)])]))
        XCTAssertNotNil(containmentClass(square, Coordinate(lat: 0.5, lon: 0.5), 0))
        XCTAssertNil(containmentClass(square, Coordinate(lat: 0.5, lon: 0.5), 0.0011))
        XCTAssertNil(containmentClass(square, Coordinate(lat: 0.5, lon: 0.5), -1))
        XCTAssertNil(containmentClass(RegionGeometry(.circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10)), Coordinate(lat: 0, lon: 0), 0))
    }
}
