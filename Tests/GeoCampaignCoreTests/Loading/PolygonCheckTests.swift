import XCTest
@testable import GeoCampaignCore

final class LoadingPolygonCheckTests: XCTestCase {
    private func ring(_ pts: [(Double, Double)]) -> [Coordinate] { pts.map { Coordinate(lat: $0.0, lon: $0.1) } }

    func testProblems() {
        let square = ring([(0, 0), (0, 1), (1, 1), (1, 0)])
        let cases: [(String, [Coordinate], [[Coordinate]], String)] = [
            ("square", square, [], ""),
            ("closed square", square + [square[0]], [], ""),
            ("repeated points", ring([(0, 0), (0, 0), (0, 1), (1, 1), (1, 1), (1, 0), (0, 0)]), [], ""),
            ("bow tie", ring([(0, 0), (1, 0), (0, 1), (1, 1)]), [],
             "the polygon crosses itself: the edge from point 2 to point 3 crosses the edge from point 4 to point 1; swap points 3 and 4"),
            ("two points", ring([(0, 0), (0, 1), (0, 0)]), [], "the polygon has 2 different points: a ring needs at least 3 different points"),
            ("touching at a vertex", ring([(0, 0), (0, 2), (1, 1), (2, 2), (2, 0), (1, 1)]), [],
             "the polygon crosses itself: the edge from point 2 to point 3 crosses the edge from point 5 to point 6; put the points in order around the shape"),
            ("spike doubling back", ring([(0, 0), (0, 2), (0, 1), (1, 1)]), [],
             "the polygon crosses itself: the edge from point 1 to point 2 crosses the edge from point 2 to point 3; put the points in order around the shape"),
            ("hole inside", square, [ring([(0.2, 0.2), (0.2, 0.8), (0.8, 0.8)])], ""),
            ("hole outside", square, [ring([(2, 2), (2, 3), (3, 3)])],
             "point 1 of hole 1 lies outside the outline of the polygon: a hole must lie inside the polygon it is cut from"),
            ("hole crossing", square, [ring([(0.5, 0.5), (0.5, 1.5), (0.8, 0.5)])],
             "hole 1 of the polygon crosses the outline: the edge from point 1 to point 2 of hole 1 crosses the edge from point 2 to point 3 of the outline; a hole must lie inside the outline"),
            ("too wide", ring([(0, -170), (0, 170), (10, 170)]), [],
             "the polygon spans 340 degrees of longitude, more than the 180 allowed: split it into two regions at the 180th meridian"),
        ]
        for (name, outer, holes, expected) in cases {
            let got = PolygonCheck.problems(outer: outer, holes: holes).map { $0.message(subject: "the polygon") }.joined(separator: " | ")
            XCTAssertEqual(got, expected, name)
        }
    }

    func testNeedsRegion() {
        let inside = Condition.inside(InsideCondition(selector: RegionSelector(tags: ["a"])))
        let during = Condition.during(DuringCondition())
        let cases: [(String, Condition, Bool)] = [
            ("inside", inside, true),
            ("during", during, false),
            ("not inside", .not(inside), false),
            ("all not/during", .all([.not(inside), during]), false),
            ("all with inside", .all([inside, during]), true),
            ("any with inside", .any([during, inside]), true),
            ("any of nots", .any([.not(inside), during]), false),
        ]
        for (name, c, expected) in cases {
            XCTAssertEqual(CampaignDecoder.needsRegion(c), expected, name)
        }
    }

    func testLargeOutlineIsCheckedQuickly() {
        // A 200,000-point outline (a circle) and a copy with one twist near the end.
        let n = 200_000
        var ring: [Coordinate] = []
        for k in 0..<n {
            let t = Double(k) / Double(n) * 2 * .pi
            ring.append(Coordinate(lat: 47 + 0.1 * sin(t), lon: 8 + 0.1 * cos(t)))
        }
        let start = Date()
        XCTAssertTrue(PolygonCheck.problems(outer: ring, holes: []).isEmpty)
        var twisted = ring
        twisted.swapAt(n - 10, n - 9)
        let problems = PolygonCheck.problems(outer: twisted, holes: []).map { $0.message(subject: "it") }
        print("two 200,000-point outlines checked in \(Date().timeIntervalSince(start)) s")
        XCTAssertEqual(problems, ["it crosses itself: the edge from point 199990 to point 199991 crosses the edge from point 199992 to point 199993; swap points 199991 and 199992"])
    }

    /// Small rings are checked pair by pair, large ones by a sweep: both find the same pair.
    func testPairwiseAndSweepFindTheSameCrossing() {
        var rng = SplitMix64(seed: 42)
        var found = 0
        for _ in 0..<2_000 {
            func ring(_ n: Int) -> [Coordinate] {
                (0..<n).map { _ in
                    // A coarse grid makes collinear and touching edges common.
                    Coordinate(lat: Double(Int.random(in: 0...8, using: &rng)) / 8, lon: Double(Int.random(in: 0...8, using: &rng)) / 8)
                }
            }
            var rings = [ring(Int.random(in: 2...20, using: &rng))]
            if Bool.random(using: &rng) { rings.append(ring(Int.random(in: 2...10, using: &rng))) }
            let pairwise = PolygonCheck.firstCrossing(rings)
            XCTAssertEqual(pairwise, PolygonCheck.firstCrossing(rings, pairwiseUpTo: 0), "\(rings)")
            if pairwise != nil { found += 1 }
        }
        XCTAssertGreaterThan(found, 100)
    }
    /// The sweep finds the pair the pair-by-pair loop finds, on rings of the sizes the loading
    /// meets: seeded star-shaped rings of 4-64 points (as the bench's 32-gons), the same with two
    /// points swapped (twisted), rings on a coarse grid (collinear, touching and doubling-back
    /// edges), and outlines with holes.
    func testSweepAgreesWithPairwiseOnRandomRings() {
        var rng = SplitMix64(seed: 2026)
        var found = 0, clean = 0
        func star(_ n: Int, _ cx: Double, _ cy: Double, _ r: Double) -> [Coordinate] {
            (0..<n).map { i in
                let a = 2 * Double.pi * Double(i) / Double(n), s = r * Double.random(in: 0.85...1.0, using: &rng)
                return Coordinate(lat: cy + s * sin(a), lon: cx + s * cos(a))
            }
        }
        func grid(_ n: Int, _ steps: Int) -> [Coordinate] {
            (0..<n).map { _ in
                Coordinate(lat: Double(Int.random(in: 0...steps, using: &rng)) / Double(steps),
                           lon: Double(Int.random(in: 0...steps, using: &rng)) / Double(steps))
            }
        }
        for trial in 0..<3_000 {
            var rings: [[Coordinate]]
            switch trial % 4 {
            case 0:
                rings = [star(Int.random(in: 4...64, using: &rng), 13.4, 52.5, 0.001)]
            case 1:
                var r = star(Int.random(in: 4...64, using: &rng), -121.8, 37.6, 0.002)
                let k = Int.random(in: 0..<(r.count - 1), using: &rng)
                r.swapAt(k, Int.random(in: (k + 1)..<r.count, using: &rng))
                rings = [r]
            case 2:
                rings = [grid(Int.random(in: 3...40, using: &rng), Int.random(in: 2...12, using: &rng))]
            default:
                rings = [star(Int.random(in: 8...48, using: &rng), 0, 0, 1)]
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    rings.append(star(Int.random(in: 3...12, using: &rng), Double.random(in: -0.9...0.9, using: &rng),
                                      Double.random(in: -0.9...0.9, using: &rng), Double.random(in: 0.02...0.3, using: &rng)))
                }
            }
            let pairwise = PolygonCheck.firstCrossing(rings, pairwiseUpTo: .max)
            XCTAssertEqual(pairwise, PolygonCheck.firstCrossing(rings), "\(rings)")
            XCTAssertEqual(pairwise, PolygonCheck.firstCrossing(rings, pairwiseUpTo: 0), "\(rings)")
            if pairwise != nil { found += 1 } else { clean += 1 }
        }
        XCTAssertGreaterThan(found, 500)
        XCTAssertGreaterThan(clean, 500)
    }
}
