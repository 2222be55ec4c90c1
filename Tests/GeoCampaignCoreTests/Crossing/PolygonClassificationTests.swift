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
}
