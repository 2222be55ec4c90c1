import XCTest
@testable import GeoCampaignCore

final class LatitudeCosineTests: XCTestCase {
    func rad(_ d: Double) -> Double { d * Double.pi / 180 }

    /// The bounds hold `cos` of the latitude as the exact path computes it, for walks of
    /// latitudes with steps of every size up to and beyond the anchor's reach, near the equator,
    /// at mid latitudes and at both poles; the anchor moves (and gives the exact cosine) only
    /// beyond its reach, and the bounds stay far narrower than the margin the circles need.
    func testBoundsHoldTheCosineOfEveryLatitude() {
        var rng = SplitMix64(seed: 21)
        var checked = 0, moved = 0, wide = 0.0
        for start in [0.0, 37.7, -33.9, 64.1, 89.999, -89.999, 45.0] {
            var bounds = LatitudeCosine()
            var lat = rad(start)
            for step in 0..<20_000 {
                // Steps from a micrometre to beyond the reach, both ways, kept within the poles.
                let size = pow(10, -12 + 10 * rng.unit()) * (rng.unit() < 0.5 ? -1 : 1)
                if step > 0 { lat = min(Double.pi / 2, max(-Double.pi / 2, lat + size)) }
                let b = bounds.bounds(lat)
                let c = cos(lat)
                XCTAssertLessThanOrEqual(b.low, c, "at \(lat)")
                XCTAssertGreaterThanOrEqual(b.high, c, "at \(lat)")
                if b.exact {
                    moved += 1
                    XCTAssertEqual(b.low, c)
                    XCTAssertEqual(b.high, c)
                }
                wide = max(wide, b.high - b.low)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 140_000)
        XCTAssertGreaterThan(moved, 1_000)
        XCTAssertLessThan(moved, 60_000)
        XCTAssertLessThan(wide, 6e-7)
    }

    /// Bounds from the anchor's cosine and sine, with the exact cosine at the ends of the reach:
    /// without the quadratic term the lower bound misses it (the test above then fails).
    func testTheQuadraticTermIsNeeded() {
        let a = rad(37.7), d = LatitudeCosine.reach
        var bounds = LatitudeCosine()
        _ = bounds.bounds(a)
        let b = bounds.bounds(a + d)
        let c = cos(a + d)
        XCTAssertLessThanOrEqual(b.low, c)
        XCTAssertGreaterThan(cos(a) - d * sin(a) - LatitudeCosine.slack, c)
    }
}
