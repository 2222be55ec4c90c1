import XCTest
@testable import GeoCampaignCore

final class GeometryTests: XCTestCase {
    let r = Earth.radiusM
    func rad(_ d: Double) -> Double { d * Double.pi / 180 }

    func testHaversineKnownDistances() {
        let cases: [(Coordinate, Coordinate, Double)] = [
            (Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1), 6_371_008.8 * Double.pi / 180),
            (Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 90), 6_371_008.8 * Double.pi / 2),
            (Coordinate(lat: 45, lon: 10), Coordinate(lat: 45.001, lon: 10), 6_371_008.8 * 0.001 * Double.pi / 180),
            (Coordinate(lat: 0, lon: 179.9995), Coordinate(lat: 0, lon: -179.9995), 6_371_008.8 * 0.001 * Double.pi / 180),
            (Coordinate(lat: 89, lon: 0), Coordinate(lat: 89, lon: 180), 6_371_008.8 * 2 * Double.pi / 180),
            // Paris (48.8566, 2.3522) to London (51.5074, -0.1278): 343.56 km on this sphere.
            (Coordinate(lat: 48.8566, lon: 2.3522), Coordinate(lat: 51.5074, lon: -0.1278), 343_556),
        ]
        for (a, b, want) in cases {
            XCTAssertEqual(Earth.distance(a, b), want, accuracy: want > 100_000 ? 1 : 1e-6, "\(a) -> \(b)")
            XCTAssertEqual(Earth.distance(b, a), Earth.distance(a, b), accuracy: 1e-9)
        }
    }

    func testCircleDepthAndSide() {
        let g = RegionGeometry(.circle(center: Coordinate(lat: 37.703026, lon: -121.759735), radiusM: 300))
        let north = { (m: Double) in Coordinate(lat: 37.703026 + m / self.r * 180 / Double.pi, lon: -121.759735) }
        let cases: [(Double, Double, Placement.Side)] = [
            (0, 300, .inside), (250, 50, .inside), (299.98, 0.02, .inside), (300, 0, .boundary),
            (300.0005, 0, .boundary), (300.02, -0.02, .outside), (400, -100, .outside),
        ]
        for (dist, depth, side) in cases {
            let p = g.placement(of: north(dist))
            XCTAssertEqual(p.depthM, depth, accuracy: 1e-6, "at \(dist) m")
            XCTAssertEqual(p.side, side, "at \(dist) m")
        }
    }

    /// A square of side 2 * 0.001 degree around (45, 10), with a hole of half size.
    static let square = [Coordinate(lat: 44.999, lon: 9.999), Coordinate(lat: 44.999, lon: 10.001),
                         Coordinate(lat: 45.001, lon: 10.001), Coordinate(lat: 45.001, lon: 9.999)]
    static let hole = [Coordinate(lat: 44.9995, lon: 9.9995), Coordinate(lat: 44.9995, lon: 10.0005),
                       Coordinate(lat: 45.0005, lon: 10.0005), Coordinate(lat: 45.0005, lon: 9.9995)]

    func testPolygonDepthUsesLocalProjectionAtTheFix() {
        let g = RegionGeometry(.polygon([Region.PolygonPart(outer: Self.square)]))
        // Centre: nearest edges are east/west at 0.001 deg of longitude scaled by cos(45 deg).
        let centre = g.placement(of: Coordinate(lat: 45, lon: 10))
        XCTAssertEqual(centre.depthM, r * rad(0.001) * cos(rad(45)), accuracy: 1e-6)
        XCTAssertEqual(centre.side, .inside)
        // Due north of the square by 0.0002 deg: distance is pure y.
        let north = g.placement(of: Coordinate(lat: 45.0012, lon: 10))
        XCTAssertEqual(north.depthM, -r * rad(0.0002), accuracy: 1e-6)
        // Diagonally off the north-east corner: distance to the vertex in the fix's projection.
        let ne = g.placement(of: Coordinate(lat: 45.0013, lon: 10.0014))
        let dx = r * rad(0.0004) * cos(rad(45.0013)), dy = r * rad(0.0003)
        XCTAssertEqual(ne.depthM, -(dx * dx + dy * dy).squareRoot(), accuracy: 1e-6)
        // On an edge: the boundary.
        XCTAssertEqual(g.placement(of: Coordinate(lat: 44.999, lon: 10.0003)).side, .boundary)
        XCTAssertEqual(g.placement(of: Coordinate(lat: 44.9995, lon: 10.001)).depthM, 0)
    }

    func testPolygonHoleIsOutside() {
        let g = RegionGeometry(.polygon([Region.PolygonPart(outer: Self.square, holes: [Self.hole])]))
        let inHole = g.placement(of: Coordinate(lat: 45, lon: 10))
        XCTAssertEqual(inHole.side, .outside)
        XCTAssertEqual(inHole.depthM, -r * rad(0.0005) * cos(rad(45)), accuracy: 1e-6)
        // Between the hole and the outer ring (north band): inside, nearest edge the hole's north side.
        let band = g.placement(of: Coordinate(lat: 45.0007, lon: 10))
        XCTAssertEqual(band.side, .inside)
        XCTAssertEqual(band.depthM, r * rad(0.0002), accuracy: 1e-6)
    }

    func testMultiPolygonPartsAndEvenOddOverlap() {
        let east = Self.square.map { Coordinate(lat: $0.lat, lon: $0.lon + 0.01) }
        let overlapping = Self.square.map { Coordinate(lat: $0.lat + 0.001, lon: $0.lon) }
        let multi = RegionGeometry(.polygon([Region.PolygonPart(outer: Self.square), Region.PolygonPart(outer: east)]))
        XCTAssertEqual(multi.placement(of: Coordinate(lat: 45, lon: 10)).side, .inside)
        XCTAssertEqual(multi.placement(of: Coordinate(lat: 45, lon: 10.01)).side, .inside)
        let between = multi.placement(of: Coordinate(lat: 45, lon: 10.003))
        XCTAssertEqual(between.side, .outside)
        XCTAssertEqual(between.depthM, -r * rad(0.002) * cos(rad(45)), accuracy: 1e-6)
        // Even-odd over all rings: where two parts overlap is outside.
        let odd = RegionGeometry(.polygon([Region.PolygonPart(outer: Self.square), Region.PolygonPart(outer: overlapping)]))
        XCTAssertEqual(odd.placement(of: Coordinate(lat: 45.0005, lon: 10)).side, .outside)
        XCTAssertEqual(odd.placement(of: Coordinate(lat: 44.9995, lon: 10)).side, .inside)
        XCTAssertEqual(odd.placement(of: Coordinate(lat: 45.0015, lon: 10)).side, .inside)
    }

    func testExpandedBoxesHoldEveryPointWithinTheMargin() {
        let shapes: [Region.Shape] = [
            .circle(center: Coordinate(lat: 45, lon: 10), radiusM: 100),
            .circle(center: Coordinate(lat: -70, lon: 179.999), radiusM: 500),
            .circle(center: Coordinate(lat: 89.995, lon: 0), radiusM: 1000),
            .polygon([Region.PolygonPart(outer: Self.square)]),
            .polygon([Region.PolygonPart(outer: Self.square.map { Coordinate(lat: $0.lat + 30, lon: $0.lon) })]),
        ]
        var rng = SplitMix64(seed: 7)
        for shape in shapes {
            let g = RegionGeometry(shape)
            let margin = 25.0
            let parts = g.bounds(expandedByMeters: margin).wrappedParts()
            var checked = 0
            for _ in 0..<20_000 {
                let b = g.bounds
                let lat = max(-90, min(90, b.minLat - 0.01 + rng.unit() * (b.maxLat - b.minLat + 0.02)))
                var lon = b.minLon - 0.02 + rng.unit() * (b.maxLon - b.minLon + 0.04)
                if lon > 180 { lon -= 360 }
                if lon < -180 { lon += 360 }
                let d = g.placement(of: Coordinate(lat: lat, lon: lon)).depthM
                if d > -margin {
                    checked += 1
                    XCTAssertTrue(parts.contains { $0.contains(lat: lat, lon: lon) }, "\(shape) misses \(lat), \(lon) at depth \(d)")
                }
            }
            XCTAssertGreaterThan(checked, 0)
        }
    }
}

/// A small seeded generator for reproducible random tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
