import XCTest
@testable import GeoCampaignCore

final class CircleClassifierTests: XCTestCase {
    let r = Earth.radiusM
    func rad(_ d: Double) -> Double { d * Double.pi / 180 }

    /// The circle fast path (thresholds on the haversine term) gives the class the depth gives, for
    /// points more than 1 cm from either threshold (semantics.md 1 asks no more).
    func testCircleClassifierMatchesDepthClasses() {
        var rng = SplitMix64(seed: 5)
        var compared = 0
        for (radius, h) in [(100.0, 20.0), (30.0, 35.0), (2_000.0, 5.0), (80.0, 0.01)] {
            let centre = Coordinate(lat: -33.9 + rng.unit(), lon: 151 + rng.unit())
            let g = RegionGeometry(.circle(center: centre, radiusM: radius))
            let fast = g.circleClassifier(hysteresisM: h)
            XCTAssertTrue(fast.isCircle)
            for _ in 0..<5_000 {
                let dist = rng.unit() * (radius + 3 * h)
                let bearing = rng.unit() * 2 * Double.pi
                let p = Coordinate(lat: centre.lat + dist * cos(bearing) / r * 180 / Double.pi,
                                   lon: centre.lon + dist * sin(bearing) / r * 180 / Double.pi / cos(rad(centre.lat)))
                let d = g.placement(of: p).depthM
                if abs(d - h) < 0.01 || abs(d + h) < 0.01 { continue }
                compared += 1
                let la = rad(p.lat)
                XCTAssertEqual(fast.classify(latRad: la, lonRad: rad(p.lon), cosLat: cos(la)), FixClass(depthM: d, hysteresisM: h))
            }
        }
        XCTAssertGreaterThan(compared, 19_000)
        // Polygons and h within the tolerance take the depth path.
        XCTAssertFalse(RegionGeometry(.circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10)).circleClassifier(hysteresisM: 0).isCircle)
        XCTAssertFalse(RegionGeometry(.polygon([Region.PolygonPart(outer: GeometryTests.square)])).circleClassifier(hysteresisM: 20).isCircle)
    }
}
