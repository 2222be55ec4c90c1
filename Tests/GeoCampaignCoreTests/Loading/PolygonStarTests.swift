import XCTest
@testable import GeoCampaignCore

/// The ring check's shortcut (`PolygonCheck.isStarAroundMean`): a ring it passes is one where
/// the edge-pair check (`ReferencePolygonCheck`, the check the sweep replaced) finds no
/// crossing, on seeded star-shaped rings of every scale and near the boundary between clean
/// and crossing rings (found by bisection); and it refuses the rings that turn one way
/// throughout but are not simple (wound twice), that double back, or that it cannot tell.
final class PolygonStarTests: XCTestCase {
    private func star(_ n: Int, lon: Double, lat: Double, r: Double, jitter: Double, clockwise: Bool, rng: inout SplitMix64) -> [Coordinate] {
        let start = Double.random(in: 0..<(2 * Double.pi), using: &rng)
        var ring = (0..<n).map { i -> Coordinate in
            let a = start + 2 * Double.pi * Double(i) / Double(n), s = r * Double.random(in: jitter...1.0, using: &rng)
            return Coordinate(lat: lat + s * sin(a), lon: lon + s * cos(a))
        }
        if clockwise { ring.reverse() }
        return ring
    }

    /// Where the shortcut says "no crossing", the reference must find none.
    private func assertAgrees(_ ring: [Coordinate], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let star = PolygonCheck.isStarAroundMean(ring)
        if star {
            XCTAssertNil(ReferencePolygonCheck.firstCrossing([ring]), "\(ring)", file: file, line: line)
            XCTAssertNil(PolygonCheck.firstCrossing([ring]), file: file, line: line)
        }
        return star
    }

    func testStarRingsOfEveryScalePassAndHaveNoCrossing() {
        var rng = SplitMix64(seed: 2_026_12_08)
        var passed = 0, total = 0
        // (center lon, lat, radius in degrees): a city's 20 m shapes, a county, a continent,
        // shapes of 1e-9 degrees far from 0 (rounding at the size of the shape), the poles.
        let places: [(Double, Double, Double)] = [(-121.8, 37.6, 0.0002), (13.4, 52.5, 0.05), (0, 0, 20),
                                                   (179.999999, -0.000001, 1e-9), (-179.9999, 89.9999, 1e-6), (2.35, 48.85, 1e-7)]
        for trial in 0..<6_000 {
            let (lon, lat, r) = places[trial % places.count]
            var ring = star(Int.random(in: 3...64, using: &rng), lon: lon, lat: lat, r: r,
                            jitter: [1.0, 0.85, 0.5, 0.2][trial % 4], clockwise: Bool.random(using: &rng), rng: &rng)
            if trial % 5 == 0 {
                // Points added along edges, on the line up to rounding (collinear runs).
                var out: [Coordinate] = []
                for k in ring.indices {
                    let a = ring[k], b = ring[(k + 1) % ring.count]
                    out.append(a)
                    for t in [0.25, 0.5, 0.75] where Bool.random(using: &rng) {
                        out.append(Coordinate(lat: a.lat + t * (b.lat - a.lat), lon: a.lon + t * (b.lon - a.lon)))
                    }
                }
                ring = out
            }
            total += 1
            if assertAgrees(ring) { passed += 1 }
        }
        // Not vacuous: most of these rings take the shortcut.
        XCTAssertGreaterThan(passed, total / 2)
    }

    /// A star ring with one point moved step by step toward a far point of the ring: the
    /// crossing starts at some step; bisected to rounding, the shortcut passes no ring at or
    /// past it, and still passes rings well before it.
    func testTheBoundaryBetweenCleanAndCrossingRings() {
        var rng = SplitMix64(seed: 12)
        var boundaries = 0, passedBefore = 0
        for trial in 0..<400 {
            let n = Int.random(in: 6...40, using: &rng)
            let base = star(n, lon: trial % 2 == 0 ? -121.8 : 179.99, lat: 37.6, r: 0.0002, jitter: 0.85,
                            clockwise: trial % 3 == 0, rng: &rng)
            let k = Int.random(in: 0..<n, using: &rng)
            let target = base[(k + n / 2) % n]
            func moved(_ t: Double) -> [Coordinate] {
                var r = base
                r[k] = Coordinate(lat: base[k].lat + t * (target.lat - base[k].lat) * 1.2, lon: base[k].lon + t * (target.lon - base[k].lon) * 1.2)
                return r
            }
            guard ReferencePolygonCheck.firstCrossing([base]) == nil, ReferencePolygonCheck.firstCrossing([moved(1)]) != nil else { continue }
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let mid = (lo + hi) / 2
                if mid == lo || mid == hi { break }
                if ReferencePolygonCheck.firstCrossing([moved(mid)]) == nil { lo = mid } else { hi = mid }
            }
            boundaries += 1
            // At the boundary, on both sides, and just past it.
            for t in [lo, hi, hi + (hi - lo), lo - (hi - lo), hi.nextUp, lo.nextDown] where t >= 0 && t <= 1 {
                _ = assertAgrees(moved(t))
            }
            XCTAssertFalse(PolygonCheck.isStarAroundMean(moved(hi)))
            if assertAgrees(moved(lo / 2)) { passedBefore += 1 }
        }
        XCTAssertGreaterThan(boundaries, 100)
        XCTAssertGreaterThan(passedBefore, 10)
    }

    func testRingsTheShortcutRefuses() {
        // A pentagram: seen from its center every edge turns counterclockwise, but it goes
        // round twice and crosses itself. The turns alone would pass it (the negative control
        // of the winding count): check that they all have one sign.
        let pentagram = (0..<5).map { i -> Coordinate in
            let a = 4 * Double.pi * Double(i) / 5
            return Coordinate(lat: 37.6 + 0.001 * sin(a), lon: -121.8 + 0.001 * cos(a))
        }
        let mean = Coordinate(lat: pentagram.map(\.lat).reduce(0, +) / 5, lon: pentagram.map(\.lon).reduce(0, +) / 5)
        let turns = (0..<5).map { PolygonCheck.orient(mean, pentagram[$0], pentagram[($0 + 1) % 5]) }
        XCTAssertEqual(Set(turns), [1])
        XCTAssertNotNil(ReferencePolygonCheck.firstCrossing([pentagram]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean(pentagram))
        XCTAssertNotNil(PolygonCheck.firstCrossing([pentagram]))

        let square = [Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1), Coordinate(lat: 1, lon: 1), Coordinate(lat: 1, lon: 0)]
        XCTAssertTrue(PolygonCheck.isStarAroundMean(square))
        XCTAssertTrue(PolygonCheck.isStarAroundMean(square.reversed()))
        // The closing point written (a zero-length edge), a point repeated, a spike out and
        // back, a point at the mean, a line, two points, NaN.
        XCTAssertFalse(PolygonCheck.isStarAroundMean(square + [square[0]]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([square[0], square[1], square[1], square[2], square[3]]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([square[0], Coordinate(lat: -1, lon: 0.5), square[0], square[1], square[2], square[3]]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1), Coordinate(lat: 0, lon: 2)]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([Coordinate(lat: -1, lon: -1), Coordinate(lat: 0, lon: 0), Coordinate(lat: 1, lon: 1), Coordinate(lat: 0, lon: 0)]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([square[0], square[1]]))
        XCTAssertFalse(PolygonCheck.isStarAroundMean([square[0], Coordinate(lat: .nan, lon: 1), square[2], square[3]]))
        // A square of 1e-160 degrees: its turns (1e-320) underflow, so their signs are not
        // trusted; one of 1e-100 degrees is still told.
        let tiny = square.map { Coordinate(lat: $0.lat * 1e-160, lon: $0.lon * 1e-160) }
        XCTAssertFalse(PolygonCheck.isStarAroundMean(tiny))
        XCTAssertTrue(PolygonCheck.isStarAroundMean(square.map { Coordinate(lat: $0.lat * 1e-100, lon: $0.lon * 1e-100) }))
        // The same square with its second point twisted across: turns of both signs.
        XCTAssertFalse(PolygonCheck.isStarAroundMean([square[0], square[2], square[1], square[3]]))
        // An L-shape is simple but hides part of itself from the mean of its points: left to
        // the sweep, which finds no crossing.
        let l = [Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 10), Coordinate(lat: 1, lon: 10), Coordinate(lat: 1, lon: 1),
                 Coordinate(lat: 10, lon: 1), Coordinate(lat: 10, lon: 0)]
        XCTAssertFalse(PolygonCheck.isStarAroundMean(l))
        XCTAssertNil(PolygonCheck.firstCrossing([l]))
    }
}
