import XCTest
@testable import GeoCampaignCore

/// Compiling many regions in parallel chunks gives the geometries compiling one by one gives.
final class CrossingCompileTests: XCTestCase {
    func testParallelGeometriesEqualSequentialOnes() {
        var rng = SplitMix64(seed: 21)
        let regions = RegionIndexTests.randomRegions(20_000, rng: &rng)
        let parallel = CampaignCrossing.geometries(of: regions)
        XCTAssertEqual(parallel.count, regions.count)
        var polygons = 0
        for (i, region) in regions.enumerated() {
            let one = RegionGeometry(region.shape)
            XCTAssertEqual(parallel[i].bounds, one.bounds, "region \(i)")
            switch (parallel[i].kind, one.kind) {
            case let (.circle(a, b, c, d), .circle(e, f, g, h)):
                XCTAssertEqual([a, b, c, d], [e, f, g, h], "region \(i)")
            case let (.polygon(p), .polygon(q)):
                polygons += 1
                XCTAssertEqual(p.vertices.map(\.latRad), q.vertices.map(\.latRad), "region \(i)")
                XCTAssertEqual(p.vertices.map(\.lonDeg), q.vertices.map(\.lonDeg), "region \(i)")
                XCTAssertEqual(p.chunks.map(\.box), q.chunks.map(\.box), "region \(i)")
            default:
                XCTFail("region \(i): kinds differ")
            }
        }
        XCTAssertGreaterThan(polygons, 5_000)
    }
}
