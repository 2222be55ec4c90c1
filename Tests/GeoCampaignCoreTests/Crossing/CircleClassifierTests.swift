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

    /// The bounds that spare `sin` give exactly the class of the haversine term itself, also for
    /// points on and a rounding away from either threshold (found by bisection on the distance),
    /// near the poles, across the antimeridian and far away (where the exact term is used).
    func testBoundsGiveTheExactTermsClassAtThresholds() {
        var rng = SplitMix64(seed: 11)
        var compared = 0, atThreshold = 0
        for (lat, lon) in [(37.7, -121.9), (-33.9, 151.2), (89.9, 10.0), (0.0, 179.9995), (64.1, -21.9)] {
            for (radius, h) in [(100.0, 20.0), (50.0, 60.0), (400.0, 25.0), (5_000.0, 100.0)] {
                let g = RegionGeometry(.circle(center: Coordinate(lat: lat, lon: lon), radiusM: radius))
                let c = g.circleClassifier(hysteresisM: h)
                func check(_ pLat: Double, _ pLon: Double) {
                    let la = rad(pLat), lo = rad(pLon), cl = cos(la)
                    let exact = c.exactClass(hLat: (la - c.latRad) * 0.5, hLon: (lo - c.lonRad) * 0.5, cosLat: cl)
                    XCTAssertEqual(c.classify(latRad: la, lonRad: lo, cosLat: cl), exact, "at \(pLat), \(pLon) for r \(radius) h \(h)")
                    compared += 1
                }
                for _ in 0..<400 {
                    let bearing = rng.unit() * 2 * Double.pi
                    let dLat = cos(bearing) / r * 180 / Double.pi, dLon = sin(bearing) / r * 180 / Double.pi / max(0.01, cos(rad(lat)))
                    // Random distances, then each threshold's exact boundary found by bisection, and its neighbours.
                    let dist = rng.unit() * (radius + 3 * h)
                    check(lat + dist * dLat, lon + dist * dLon)
                    for target in [radius - h, radius + h] where target > 0 {
                        var lo = 0.0, hi = radius + 4 * h
                        let wanted = c.exactClass(hLat: 0, hLon: 0, cosLat: cos(rad(lat)))
                        for _ in 0..<80 {
                            let mid = (lo + hi) / 2
                            let la = rad(lat + mid * dLat), lonR = rad(lon + mid * dLon)
                            let cls = c.exactClass(hLat: (la - c.latRad) * 0.5, hLon: (lonR - c.lonRad) * 0.5, cosLat: cos(la))
                            if (target == radius - h ? cls == wanted : cls != .outside) { lo = mid } else { hi = mid }
                        }
                        for d in [lo, hi, lo.nextDown, hi.nextUp] {
                            check(lat + d * dLat, lon + d * dLon)
                            atThreshold += 1
                        }
                    }
                }
                // Far away: the exact term decides.
                check(lat - 3, lon + 2)
                check(-lat, lon > 0 ? lon - 180 : lon + 180)
            }
        }
        XCTAssertGreaterThan(compared, 20_000)
        XCTAssertGreaterThan(atThreshold, 10_000)
    }

    /// With only bounds of the fix's latitude cosine (`LatitudeCosine`, anchored up to its reach
    /// away), the classifier gives the class of the exact cosine or none: on random points and
    /// on points at and a rounding away from either threshold, where it must often give none.
    func testCosineBoundsGiveTheExactClassOrNone() {
        var rng = SplitMix64(seed: 12)
        var decided = 0, undecided = 0, compared = 0
        for (lat, lon) in [(37.7, -121.9), (-33.9, 151.2), (89.9, 10.0), (0.0, 179.9995), (64.1, -21.9)] {
            for (radius, h) in [(100.0, 20.0), (50.0, 60.0), (400.0, 25.0), (5_000.0, 100.0)] {
                let g = RegionGeometry(.circle(center: Coordinate(lat: lat, lon: lon), radiusM: radius))
                let c = g.circleClassifier(hysteresisM: h)
                func check(_ pLat: Double, _ pLon: Double) {
                    let la = rad(pLat), lo = rad(pLon)
                    // An anchor up to the reach away (clamped to the poles), then the fix.
                    var bounds = LatitudeCosine()
                    _ = bounds.bounds(min(Double.pi / 2, max(-Double.pi / 2, la + (rng.unit() * 2 - 1) * LatitudeCosine.reach)))
                    let b = bounds.bounds(la)
                    compared += 1
                    guard let bounded = c.classify(latRad: la, lonRad: lo, cosLow: b.low, cosHigh: b.high) else {
                        undecided += 1
                        return
                    }
                    decided += 1
                    XCTAssertEqual(bounded, c.classify(latRad: la, lonRad: lo, cosLat: cos(la)), "at \(pLat), \(pLon) for r \(radius) h \(h)")
                }
                for _ in 0..<400 {
                    let bearing = rng.unit() * 2 * Double.pi
                    let dLat = cos(bearing) / r * 180 / Double.pi, dLon = sin(bearing) / r * 180 / Double.pi / max(0.01, cos(rad(lat)))
                    check(lat + rng.unit() * (radius + 3 * h) * dLat, lon + rng.unit() * (radius + 3 * h) * dLon)
                    for target in [radius - h, radius + h] where target > 0 {
                        var lo = 0.0, hi = radius + 4 * h
                        let wanted = c.exactClass(hLat: 0, hLon: 0, cosLat: cos(rad(lat)))
                        for _ in 0..<80 {
                            let mid = (lo + hi) / 2
                            let la = rad(lat + mid * dLat), lonR = rad(lon + mid * dLon)
                            let cls = c.exactClass(hLat: (la - c.latRad) * 0.5, hLon: (lonR - c.lonRad) * 0.5, cosLat: cos(la))
                            if (target == radius - h ? cls == wanted : cls != .outside) { lo = mid } else { hi = mid }
                        }
                        for d in [lo, hi, lo.nextDown, hi.nextUp] { check(lat + d * dLat, lon + d * dLon) }
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 35_000)
        XCTAssertGreaterThan(decided, 10_000)
        XCTAssertGreaterThan(undecided, 1_000)
    }
}
