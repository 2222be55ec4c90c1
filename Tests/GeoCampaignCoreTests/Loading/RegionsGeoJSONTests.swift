import XCTest
@testable import GeoCampaignCore

final class LoadingRegionsGeoJSONTests: XCTestCase {
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        try GeoJSONCheck.features(text, file: file, line: line)
    }

    func testConformanceRegions() throws {
        let dir = LoadingConformanceTests.campaignsDir
        try XCTSkipUnless(FileManager.default.fileExists(atPath: dir))
        let r = CampaignLoader().load(paths: [dir])
        let text = RegionsGeoJSON.featureCollection(r.campaignSet)
        let features = try check(text)
        XCTAssertEqual(features.count, r.regionCount)
        let props = features.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(props.prefix(3).compactMap { $0["id"] as? String }, ["dealer-1", "dealer-2", "dealer-3"])
        XCTAssertEqual(props.first?["campaign"] as? String, "auto-insurance")
        // Order: campaign order, then region order.
        let order = props.map { "\($0["campaign"] as? String ?? "")/\($0["id"] as? String ?? "")" }
        let expected = r.campaignSet.campaigns.flatMap { c in c.regions.map { "\(c.id)/\($0.id)" } }
        XCTAssertEqual(order, expected)

        let noodleIndex = try XCTUnwrap(order.firstIndex(of: "lorrenzillos/noodle-bar"))
        let noodle = features[noodleIndex]
        let np = try XCTUnwrap(noodle["properties"] as? [String: Any])
        XCTAssertEqual(np["kind"] as? String, "circle")
        XCTAssertEqual(try XCTUnwrap(np["radius_m"] as? Double), 60.96, accuracy: 1e-9)
        XCTAssertEqual(np["tags"] as? [String], ["competitor"])
        XCTAssertNil(np["name"])
        let ring = try XCTUnwrap(((noodle["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first)
        XCTAssertEqual(ring.count, 65, "64-gon plus the closing position")
        for p in ring {
            XCTAssertEqual(GeoJSONCheck.haversine(37.689536, -121.757462, p[1], p[0]), 60.96, accuracy: 0.05)
        }

        let tacoIndex = try XCTUnwrap(order.firstIndex(of: "lorrenzillos/taco-town"))
        let taco = features[tacoIndex]
        XCTAssertEqual((taco["geometry"] as? [String: Any])?["type"] as? String, "MultiPolygon")
        XCTAssertEqual((taco["properties"] as? [String: Any])?["name"] as? String, "Taco Town")
        XCTAssertEqual((taco["properties"] as? [String: Any])?["kind"] as? String, "polygon")
        XCTAssertNil((taco["properties"] as? [String: Any])?["radius_m"])
        let first = try XCTUnwrap(((taco["geometry"] as? [String: Any])?["coordinates"] as? [[[[Double]]]])?.first?.first?.first)
        XCTAssertEqual(first, [-121.7774205, 37.7081457], "positions are [lon, lat]")

        let barnIndex = try XCTUnwrap(order.firstIndex(of: "lorrenzillos/burger-barn"))
        let barn = try XCTUnwrap((features[barnIndex]["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])
        XCTAssertEqual(barn.map(\.count), [7, 5], "6 + closing, 4 + closing")
    }

    func testWindingIsFixedWhateverTheInputOrder() throws {
        let cw = [Coordinate(lat: 0, lon: 0), Coordinate(lat: 1, lon: 0), Coordinate(lat: 1, lon: 1), Coordinate(lat: 0, lon: 1)]
        let ccwHole = [Coordinate(lat: 0.2, lon: 0.2), Coordinate(lat: 0.2, lon: 0.8), Coordinate(lat: 0.8, lon: 0.8), Coordinate(lat: 0.8, lon: 0.2)]
        let region = Region(id: "sq", name: "Square \"A\"", tags: ["t"], shape: .polygon([Region.PolygonPart(outer: cw, holes: [ccwHole])]))
        let set = CampaignSet(campaigns: [Campaign(id: "c", regions: [region], rules: [], offers: [])])
        let text = RegionsGeoJSON.featureCollection(set)
        let features = try check(text)
        XCTAssertEqual(features.count, 1)
        XCTAssertEqual((features[0]["properties"] as? [String: Any])?["name"] as? String, "Square \"A\"")
        XCTAssertEqual(text, """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"sq","name":"Square \\"A\\"","tags":["t"],"kind":"polygon","campaign":"c"},"geometry":{"type":"Polygon","coordinates":[[[1,0],[1,1],[0,1],[0,0],[1,0]],[[0.2,0.8],[0.8,0.8],[0.8,0.2],[0.2,0.2],[0.2,0.8]]]}}
        ]}

        """)
    }

    func testEmptySet() throws {
        let text = RegionsGeoJSON.featureCollection(CampaignSet(campaigns: []))
        XCTAssertEqual(try check(text).count, 0)
    }
}
