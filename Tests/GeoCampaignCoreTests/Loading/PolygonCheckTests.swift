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
}
