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

/// The spatial compile order is a permutation that puts near regions near one another.
final class CrossingSpatialOrderTests: XCTestCase {
    func testSpatialOrderIsAPermutationGroupingNeighbours() {
        var rng = SplitMix64(seed: 8)
        let regions = RegionIndexTests.randomRegions(5_000, rng: &rng, around: Coordinate(lat: 37.7, lon: -121.8), spreadDeg: 1)
        let geometries = regions.map { RegionGeometry($0.shape) }
        let order = CampaignCrossing.spatialOrder(geometries)
        XCTAssertEqual(order.sorted(), Array(geometries.indices))
        func centre(_ i: Int) -> (Double, Double) {
            let b = geometries[i].bounds
            return ((b.minLat + b.maxLat) / 2, (b.minLon + b.maxLon) / 2)
        }
        func gap(_ a: Int, _ b: Int) -> Double {
            let (x, y) = (centre(a), centre(b))
            return abs(x.0 - y.0) + abs(x.1 - y.1)
        }
        let ordered = zip(order, order.dropFirst()).map { gap($0, $1) }.reduce(0, +)
        let original = zip(geometries.indices, geometries.indices.dropFirst()).map { gap($0, $1) }.reduce(0, +)
        XCTAssertLessThan(ordered * 10, original, "consecutive regions in compile order are close")
    }
}
