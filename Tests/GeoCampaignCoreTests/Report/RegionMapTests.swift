import XCTest
@testable import GeoCampaignCore

/// The map's projection, frame, heat and shapes.
final class ReportRegionMapTests: XCTestCase {
    func testWebMercatorAgainstKnownPoints() {
        let origin = WebMercator.project(Coordinate(lat: 0, lon: 0))
        XCTAssertEqual(origin.x, 0, accuracy: 1e-9)
        XCTAssertEqual(origin.y, 0, accuracy: 1e-9)
        let edge = WebMercator.project(Coordinate(lat: 85.0511287798066, lon: 180))
        XCTAssertEqual(edge.x, 20_037_508.342789244, accuracy: 1e-6, "pi * R")
        XCTAssertEqual(edge.y, 20_037_508.342789244, accuracy: 1e-3, "the square's edge")
        // EPSG:3857 of (37.7, -121.75): x = R * lon in radians, y = R * ln tan(pi/4 + lat/2).
        let p = WebMercator.project(Coordinate(lat: 37.7, lon: -121.75))
        XCTAssertEqual(p.x, -13_553_148.004, accuracy: 0.001)
        XCTAssertEqual(p.y, 4_537_132.130, accuracy: 0.001)
        XCTAssertEqual(WebMercator.project(Coordinate(lat: 90, lon: 0)).y, edge.y, accuracy: 1e-3, "clamped")
        XCTAssertEqual(WebMercator.scale(atLatitude: 60), 2, accuracy: 1e-12)
    }

    func testTheFrameHoldsEveryPointWithAMargin() {
        let f = MapFrame(points: [(0, 0), (1000, 2000)])
        XCTAssertEqual(f.minX, -100)
        XCTAssertEqual(f.maxY, 2100)
        XCTAssertEqual(f.width, 1200)
        XCTAssertEqual(f.height, 2200)
        XCTAssertEqual(f.viewBox, "0 0 1200 2200")
        let single = MapFrame(points: [(5, 5)])
        XCTAssertEqual(single.width, 100, "at least 50 m around a single point")
        XCTAssertEqual(MapFrame(points: []).width, 2000)
        XCTAssertEqual(MapFrame.fmt(12.34), "12.3")
        XCTAssertEqual(MapFrame.fmt(12.0), "12")
        XCTAssertEqual(MapFrame.fmt(-0.34), "-0.3")
        XCTAssertEqual(MapFrame.fmt(-12.36), "-12.4")
        XCTAssertEqual(MapFrame.fmt(0.04), "0")
        XCTAssertEqual(MapFrame.fmt(.nan), "0")
    }

    func testHeatRunsFromPaleToDarkOnALogScale() {
        XCTAssertEqual(RegionMap.heatColor(visits: 0, maxVisits: 10), RegionMap.noVisits)
        XCTAssertEqual(RegionMap.heatColor(visits: 10, maxVisits: 10), "#800026")
        XCTAssertEqual(RegionMap.heatColor(visits: 1, maxVisits: 1), "#800026")
        XCTAssertNotEqual(RegionMap.heatColor(visits: 1, maxVisits: 100), RegionMap.heatColor(visits: 10, maxVisits: 100))
        XCTAssertEqual(RegionMap.heatColor(visits: 5, maxVisits: 0), RegionMap.noVisits)
    }

    func testEveryRegionIsOneShapeWithItsHoles() {
        let square = [Coordinate(lat: 37.70, lon: -121.76), Coordinate(lat: 37.70, lon: -121.75), Coordinate(lat: 37.71, lon: -121.75), Coordinate(lat: 37.71, lon: -121.76)]
        let hole = [Coordinate(lat: 37.703, lon: -121.757), Coordinate(lat: 37.703, lon: -121.753), Coordinate(lat: 37.707, lon: -121.753)]
        let c = Campaign(id: "c", regions: [
            Region(id: "ring", name: "A & B", shape: .circle(center: Coordinate(lat: 37.7, lon: -121.7), radiusM: 100)),
            Region(id: "donut", shape: .polygon([Region.PolygonPart(outer: square, holes: [hole])])),
            Region(id: "two", shape: .polygon([Region.PolygonPart(outer: square), Region.PolygonPart(outer: hole)])),
        ], rules: [], offers: [])
        let set = CampaignSet(campaigns: [c])
        let plan = MeasurementPlan(campaigns: set)
        let m = MeasurementResult(tally: plan.emptyTally(), campaigns: set, lines: 0)
        let svg = RegionMap.svg(m, campaigns: set, user: nil)
        XCTAssertEqual(svg.components(separatedBy: "class=\"region\"").count - 1, 3)
        XCTAssertEqual(svg.components(separatedBy: "<circle").count - 1, 1)
        let donut = svg.components(separatedBy: "data-region=\"donut\"")[1].components(separatedBy: ">")[0]
        XCTAssertEqual(donut.components(separatedBy: "M").count - 1, 2, "outer ring and hole in one path")
        XCTAssertTrue(donut.contains("fill-rule=\"evenodd\""))
        let two = svg.components(separatedBy: "data-region=\"two\"")[1].components(separatedBy: ">")[0]
        XCTAssertEqual(two.components(separatedBy: "Z").count - 1, 2, "a MultiPolygon's parts in one path")
        XCTAssertTrue(svg.contains("<title>A &amp; B (ring) · c: 0 visits</title>"))
        // The circle's radius is 100 m on the ground, 100 / cos(37.7°) in projected meters.
        XCTAssertTrue(svg.contains("r=\"126.4\""), svg)
    }
}
