import XCTest
@testable import GeoCampaignCore

/// The point a test's stays are placed at lies well inside its region, for circles, polygons
/// whose hole covers the middle, and MultiPolygons whose parts lie far apart.
final class InteriorPointTests: XCTestCase {
    func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon) }

    func assertDeepInside(_ region: Region, atLeast meters: Double, file: StaticString = #filePath, line: UInt = #line) {
        let (p, depth) = InteriorPoint.find(region)
        let placed = RegionGeometry(region.shape).placement(of: p)
        XCTAssertEqual(placed.side, .inside, file: file, line: line)
        XCTAssertEqual(placed.depthM, depth, accuracy: 1e-6, file: file, line: line)
        XCTAssertGreaterThan(depth, meters, "\(region.id) at \(p)", file: file, line: line)
    }

    func testCircleCenter() {
        let r = Region(id: "circle", shape: .circle(center: c(47.3769, 8.5417), radiusM: 100))
        XCTAssertEqual(InteriorPoint.find(r).0, c(47.3769, 8.5417))
        assertDeepInside(r, atLeast: 99)
    }

    func testPolygonWithAHoleOverItsMiddle() {
        let outer = [c(47.3800, 8.5300), c(47.3800, 8.5340), c(47.3830, 8.5340), c(47.3830, 8.5300)]
        let hole = [c(47.3806, 8.5308), c(47.3806, 8.5332), c(47.3824, 8.5332), c(47.3824, 8.5308)]
        let r = Region(id: "ring", shape: .polygon([Region.PolygonPart(outer: outer, holes: [hole])]))
        // The middle of the box is in the hole: outside the region.
        XCTAssertEqual(RegionGeometry(r.shape).placement(of: c(47.3815, 8.5320)).side, .outside)
        // The ring is about 67 m wide on its short sides: the point is nearly in its middle.
        assertDeepInside(r, atLeast: 30)
    }

    func testMultiPolygonPartsFarApart() {
        let a = [c(47.3600, 8.5200), c(47.3600, 8.5230), c(47.3620, 8.5230), c(47.3620, 8.5200)]
        let b = [c(47.3900, 8.5600), c(47.3900, 8.5630), c(47.3920, 8.5630), c(47.3920, 8.5600)]
        let r = Region(id: "twin", shape: .polygon([Region.PolygonPart(outer: a), Region.PolygonPart(outer: b)]))
        XCTAssertEqual(RegionGeometry(r.shape).placement(of: c(47.3760, 8.5415)).side, .outside)
        assertDeepInside(r, atLeast: 90)
    }

    func testConcaveUShape() {
        // A U whose box middle is in the notch.
        let u = [c(0, 0), c(0, 0.003), c(0.003, 0.003), c(0.003, 0.002), c(0.001, 0.002), c(0.001, 0.001), c(0.003, 0.001), c(0.003, 0)]
        let r = Region(id: "u", shape: .polygon([Region.PolygonPart(outer: u)]))
        assertDeepInside(r, atLeast: 40)
    }
}
