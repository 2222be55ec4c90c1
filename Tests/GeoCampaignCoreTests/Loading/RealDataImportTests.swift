import XCTest
@testable import GeoCampaignCore

/// Real public GeoJSON (shared/data/places) imports without errors.
final class LoadingRealDataImportTests: XCTestCase {
    static let places = TestData.path("places")

    func testZurichAndOSMImports() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.places), "shared places data not present")
        let dir = NSTemporaryDirectory() + "geocampaign-real-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let districts = """
        campaign: zurich-districts
        regions:
          - import: \(Self.places)/zurich/stzh.adm_stadtkreise_a.json
            id_property: objid
            name_property: bezeichnung
            tags: [district]
        rules:
          - { id: r, when: { inside: { tags: [district] } }, offer: o }
        offers:
          - id: o
        """
        _ = FileManager.default.createFile(atPath: dir + "/d.yaml", contents: Data(districts.utf8))
        let yaml = """
        campaign: zurich
        regions:
          - import: \(Self.places)/zurich/stp.gastwirtschaftsbetriebe.json
            id_property: objectid
            name_property: betriebsname
            radius: 100m
            tags: [restaurant]
          - import: \(Self.places)/osm-multipolygons/osm_multipolygons.geojson
            tags: [osm]
        rules:
          - { id: r, when: { visited: { tags: [restaurant, osm] } }, offer: o }
        offers:
          - id: o
        """
        _ = FileManager.default.createFile(atPath: dir + "/z.yaml", contents: Data(yaml.utf8))
        let start = Date()
        let r = CampaignLoader().load(paths: [dir])
        print("Zurich + OSM imports loaded in \(Date().timeIntervalSince(start)) s")
        XCTAssertEqual(r.errorCount, 0, r.diagnostics.map(\.description).joined(separator: "\n"))
        // Two district outlines of the official data twist on themselves: one summary warning;
        // the OSM outline in Seville is 1,626 km from the Zürich restaurants: another.
        XCTAssertEqual(r.diagnostics.map(\.severity), [.warning, .warning])
        XCTAssertTrue(r.diagnostics.last?.message.hasPrefix("imported from \(Self.places)/osm-multipolygons/osm_multipolygons.geojson, the region 'relation/9650545' at \"37.3858, -6.0092\" is 1,626 km from the middle of this campaign's regions") ?? false,
                      r.diagnostics.last?.message ?? "")
        XCTAssertEqual(r.diagnostics.first?.line, 3)
        XCTAssertTrue(r.diagnostics.first?.message.hasPrefix("in '\(Self.places)/zurich/stzh.adm_stadtkreise_a.json', 2 features cross themselves; the first, at line 5103: feature 5 ('2') crosses itself near 47.3845207512, 8.5033805474") ?? false)
        XCTAssertEqual(r.campaignSet.campaigns.map(\.id), ["zurich-districts", "zurich"])
        let d = r.campaignSet.campaigns[0]
        XCTAssertEqual(d.regions.count, 12)
        let kreis6 = try XCTUnwrap(d.regions.first { $0.id == "1" })
        XCTAssertEqual(kreis6.name, "Kreis 6")
        let c = r.campaignSet.campaigns[1]
        XCTAssertEqual(c.regions.count, 3463 + 3)
        XCTAssertEqual(c.regions.first?.name, "Green Kitchen Lab")
        let clapham = try XCTUnwrap(c.regions.first { $0.id == "relation/1290065" })
        guard case .polygon(let parts) = clapham.shape else { return XCTFail("Clapham Common is not a polygon") }
        XCTAssertEqual(parts.count, 5)
        XCTAssertEqual(parts.map(\.holes.count), [0, 1, 0, 0, 0])
        XCTAssertEqual(clapham.tags, ["osm"])

        // The export of real polygons (5-part MultiPolygon with holes, 1,500-point outlines) is
        // valid GeoJSON with RFC 7946 winding.
        let features = try GeoJSONCheck.features(RegionsGeoJSON.featureCollection(r.campaignSet))
        XCTAssertEqual(features.count, r.regionCount)
    }
}
