import XCTest
@testable import GeoCampaignCore

/// Issue 10: advice a new user gets for the usual mistakes, and imports that are not GeoJSON
/// files. Each test failed before its fix.
final class LoadingAdviceTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "geocampaign-advice-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func load(_ text: String, files: [String: String] = [:]) -> LoadResult {
        for (name, body) in files { _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(body.utf8)) }
        _ = FileManager.default.createFile(atPath: dir + "/c.yaml", contents: Data(text.utf8))
        return CampaignLoader().load(paths: [dir + "/c.yaml"])
    }

    /// The diagnostics as `line:column: severity: message`, the path left out.
    private func lines(_ r: LoadResult) -> [String] {
        r.diagnostics.map { "\($0.line):\($0.column): \($0.severity == .error ? "error" : "warning"): \($0.message)" }
    }

    /// A campaign of the regions imported from p.geojson, all tagged p.
    private static let importCampaign = """
        campaign: c
        regions:
          - { import: p.geojson, radius: 100m, tags: [p] }
        rules:
          - { id: r, when: { inside: { tags: [p] } }, offer: o }
        offers:
          - id: o
        """

    private func campaign(when: String, rule extra: String = "") -> String {
        """
        campaign: c
        regions:
          - { id: store, circle: { center: "47.37, 8.54", radius: 150m } }
        rules:
          - id: r
            when:
        \(when)
        \(extra)offers:
          - id: o

        """
    }

    // 10.15: ranges in days, a contract extension (docs/campaign-format.md).
    func testDaysRangesAreAcceptedAndWrap() throws {
        let cases: [(String, Set<Int>)] = [("[mon-fri]", [1, 2, 3, 4, 5]), ("[fri-mon]", [5, 6, 7, 1]), ("[sat-sun, wed]", [6, 7, 3]),
                                           ("[sun-tue]", [7, 1, 2]), ("[mon - wed]", [1, 2, 3])]
        for (days, expected) in cases {
            let r = load(campaign(when: "      all: [ { inside: { regions: [store] } }, { during: { days: \(days) } } ]", rule: "    offer: o\n"))
            XCTAssertEqual(lines(r), [], days)
            guard case .all(let cs)? = r.campaignSet.campaigns.first?.rules.first?.condition, case .during(let d)? = cs.last else {
                XCTFail(days)
                continue
            }
            XCTAssertEqual(d.days, expected, days)
        }
        let bad = load(campaign(when: "      all: [ { inside: { regions: [store] } }, { during: { days: [mon-mon, fri-, Mon-Fri] } } ]", rule: "    offer: o\n"))
        XCTAssertEqual(lines(bad), [
            "7:67: error: 'mon-mon' starts and ends on the same day: write mon for that day alone, or leave days out for every day",
            "7:76: error: 'fri-' is not a range of days: write the first and last day, e.g. mon-fri",
            "7:82: error: write days as mon, tue, wed, thu, fri, sat, sun: 'mon' instead of 'Mon'",
        ])
        // The advice for a bare range is the list form, which is now accepted.
        let scalar = load(campaign(when: "      all: [ { inside: { regions: [store] } }, { during: { days: mon-fri } } ]", rule: "    offer: o\n"))
        XCTAssertEqual(lines(scalar), ["7:66: error: 'days' takes a list: write days: [mon-fri]"])
    }

    // 10.15: `offer:` indented into the condition was told to move "inside 'any'".
    func testOfferIndentedIntoTheConditionBelongsToTheRule() {
        let r = load(campaign(when: "      any:\n        - inside: { regions: [store] }\n      offer: o"))
        XCTAssertEqual(lines(r), ["9:7: error: 'offer' belongs to the rule, not to its condition: indent it like the rule's when:, not under it"])
        let first = load(campaign(when: "      offer: o\n      inside: { regions: [store] }"))
        XCTAssertEqual(lines(first), ["7:7: error: 'offer' belongs to the rule, not to its condition: indent it like the rule's when:, not under it"])
        let inner = load(campaign(when: "      inside: { regions: [store], offer: o }"))
        XCTAssertEqual(lines(inner), ["7:35: error: unexpected key 'offer' in an inside condition: 'offer' belongs to the rule, not to its condition: indent it like the rule's when:, not under it"])
    }

    // 10.19: a campaign without offers: got two more errors, one per rule naming an offer.
    func testMissingOffersIsOneError() {
        let text = """
        campaign: c
        regions:
          - { id: store, circle: { center: "47.37, 8.54", radius: 150m } }
        rules:
          - { id: r, when: { inside: { regions: [store] } }, offer: o }
          - { id: s, when: { inside: { regions: [store] } } }
        """
        XCTAssertEqual(lines(load(text)), [
            "1:1: error: this campaign has no 'offers': add at least one, e.g. offers: [ { id: coupon, message: 10% off today } ]",
        ])
    }

    // 10.17: an import without ids printed one error per feature.
    func testImportWithoutIdsIsOneErrorNamingAUniqueProperty() throws {
        let places = TestData.path("places")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: places), "shared places data not present")
        let text = """
        campaign: zurich
        regions:
          - import: \(places)/zurich/stp.gastwirtschaftsbetriebe.json
            radius: 100m
            tags: [restaurant]
        rules:
          - { id: r, when: { visited: { tags: [restaurant] } }, offer: o }
        offers:
          - id: o
        """
        XCTAssertEqual(lines(load(text)), [
            "3:13: error: all 3463 features in '\(places)/zurich/stp.gastwirtschaftsbetriebe.json' have no usable id (the first at line 5 of that file): add id_property: objectid",
        ])
    }

    func testImportWithoutIdsListsEveryUniqueProperty() {
        let geo = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "A", "kind": "x", "ref": 1, "osm_id": "n1"}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "properties": {"name": "B", "kind": "x", "ref": 2, "osm_id": "n2"}, "geometry": {"type": "Point", "coordinates": [8.55, 47.37]}},
          {"type": "Feature", "properties": {"name": "C", "kind": "y", "ref": 3, "osm_id": "n3"}, "geometry": {"type": "Point", "coordinates": [8.56, 47.37]}}
        ]}
        """
        let text = Self.importCampaign
        XCTAssertEqual(lines(load(text, files: ["p.geojson": geo])), [
            "3:15: error: all 3 features in 'p.geojson' have no usable id (the first at line 2 of that file): add id_property: osm_id (the properties with a different value in every feature: osm_id, name, ref)",
        ])
        let one = geo.replacingOccurrences(of: "\"properties\": {\"name\": \"A\"", with: "\"id\": \"a\", \"properties\": {\"name\": \"A\"")
            .replacingOccurrences(of: "\"properties\": {\"name\": \"B\"", with: "\"id\": \"b\", \"properties\": {\"name\": \"B\"")
        XCTAssertEqual(lines(load(text, files: ["p.geojson": one])).count, 1)
        XCTAssertTrue(lines(load(text, files: ["p.geojson": one])).first?.hasPrefix("4:3: error: feature 3 has no usable id") == true)
    }

    // 10.11: a FIFO as an import blocked the load for ever; a file that is not GeoJSON is said
    // so without quoting it.
    func testImportsMustBeRegularGeoJSONFiles() throws {
        let fifo = dir + "/pipe.geojson"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let text = """
        campaign: c
        regions:
          - { import: pipe.geojson, radius: 100m }
          - { import: /dev/zero, radius: 100m }
          - { import: secret.txt, radius: 100m }
          - { id: store, circle: { center: "47.37, 8.54", radius: 150m } }
        rules:
          - { id: r, when: { inside: { regions: [store] } }, offer: o }
        offers:
          - id: o
        """
        let r = load(text, files: ["secret.txt": "root:x:0:0:hunter2\n"])
        XCTAssertEqual(lines(r), [
            "3:15: error: the import 'pipe.geojson' is a named pipe (FIFO), not a GeoJSON file: import a regular file",
            "4:15: error: the import '/dev/zero' is a device, not a GeoJSON file: import a regular file",
            "5:15: error: the import 'secret.txt' is not GeoJSON (it does not start with '{' as a GeoJSON FeatureCollection does): export the regions as a GeoJSON FeatureCollection",
        ])
        XCTAssertFalse(r.diagnostics.map(\.description).joined().contains("hunter2"))
    }

    /// A FIFO named as a campaign file blocked the load as an import did.
    func testCampaignPathsMustBeRegularFiles() {
        let fifo = dir + "/pipe.yaml"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let r = CampaignLoader().load(paths: [fifo])
        XCTAssertEqual(r.diagnostics.map(\.description), ["\(fifo): error: not a regular file (a named pipe, device or socket): name a campaign file or folder"])
        XCTAssertTrue(r.hasErrors)
    }

    // 10.19: numeric ids written with an exponent printed as 1e+21.
    func testNumericIdsAreTheirDecimalText() {
        let geo = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 1e21, "properties": {}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "id": 1.5E2, "properties": {}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "id": 25e-3, "properties": {}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "id": 123456789012345678901234, "properties": {}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "id": -12.50e1, "properties": {}, "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}}
        ]}
        """
        let text = Self.importCampaign
        let r = load(text, files: ["p.geojson": geo])
        XCTAssertEqual(lines(r), [])
        XCTAssertEqual(r.campaignSet.campaigns.first?.regions.map(\.id), ["1000000000000000000000", "150", "0.025", "123456789012345678901234", "-125"])
    }

    // 10.13: UTC+1 and the like were taken silently as fixed offsets.
    func testFixedOffsetTimeZonesAreErrorsNamingTheRegionsZone() {
        let fix = "is a fixed offset, an hour off every summer where clocks change, and not an IANA name: write the zone of this campaign's regions, Europe/Zurich, which follows their clock changes; or Etc/GMT-1 for a fixed offset on purpose (Etc names invert the sign: Etc/GMT-1 is UTC+1)"
        for zone in ["UTC+1", "GMT+1", "UTC+01:00", "\"+01:00\"", "GMT+0100"] {
            let text = """
            campaign: c
            active: { from: 2026-03-01, timezone: \(zone) }
            regions:
              - { id: store, circle: { center: "47.37, 8.54", radius: 150m } }
            rules:
              - { id: r, when: { inside: { regions: [store] } }, offer: o }
            offers:
              - id: o
            """
            let shown = zone.replacingOccurrences(of: "\"", with: "")
            XCTAssertEqual(lines(load(text)), ["2:39: error: timezone '\(shown)' \(fix)"], zone)
        }
        let during = campaign(when: "      all: [ { inside: { regions: [store] } }, { during: { hours: \"11:00-14:00\", timezone: UTC-5 } } ]", rule: "    offer: o\n")
        let india = during.replacingOccurrences(of: "UTC-5", with: "UTC+05:30").replacingOccurrences(of: "47.37, 8.54", with: "28.61, 77.21")
        XCTAssertEqual(lines(load(india)), [
            "7:92: error: timezone 'UTC+05:30' is a fixed offset, an hour off every summer where clocks change, and not an IANA name: write the zone of this campaign's regions, Asia/Kolkata, which follows their clock changes",
        ])
        // An offset that does not fit the regions: their own zone, not a far one at that offset.
        let california = during.replacingOccurrences(of: "UTC-5", with: "UTC+1").replacingOccurrences(of: "47.37, 8.54", with: "37.70, -121.76")
        XCTAssertEqual(lines(load(california)).first.map { $0.contains("write the zone of this campaign's regions, America/Los_Angeles,") }, true, "\(lines(load(california)))")
        // IANA names, Etc zones included, are taken as they are.
        for zone in ["Europe/Zurich", "Etc/GMT-1", "UTC", "America/Los_Angeles"] {
            let text = during.replacingOccurrences(of: "UTC-5", with: zone)
            XCTAssertEqual(lines(load(text)).filter { $0.contains("error") }, [], zone)
        }
    }

    // 10.16: swapped coordinates, a region far from its campaign's zone, a 300 km radius.
    func testFarRegionsAndLargeRadiiAreWarnedAbout() {
        let text = """
        campaign: c
        active: { timezone: Europe/Zurich }
        regions:
          - { id: hb, tags: [z], circle: { center: "47.3779, 8.5403", radius: 150m } }
          - { id: eth, tags: [z], circle: { center: "47.3763, 8.5477", radius: 150m } }
          - { id: swapped, tags: [z], circle: { center: "8.5417, 47.3686", radius: 150m } }
          - { id: wide, tags: [z], circle: { center: "47.37, 8.54", radius: 300km } }
        rules:
          - { id: r, when: { inside: { tags: [z] } }, offer: o }
        offers:
          - id: o
        """
        XCTAssertEqual(lines(load(text)), [
            "6:11: warning: the region 'swapped' at \"8.5417, 47.3686\" is 5,657 km from the middle of this campaign's regions, \"47.3731, 8.544\": its latitude and longitude look swapped, the point \"47.3686, 8.5417\" is near the others",
            "6:11: warning: the region 'swapped' at \"8.5417, 47.3686\" is 5,658 km from Europe/Zurich, the campaign's time zone: check the region's coordinates, or the timezone",
            "7:69: warning: a radius of 300 km is large for a place (more than 10 km): check the unit, e.g. 300m",
        ])
        // Regions in one city, near their zone, and a radius of 10 km: nothing to say.
        let fine = text.replacingOccurrences(of: "8.5417, 47.3686", with: "47.3686, 8.5417").replacingOccurrences(of: "300km", with: "10km")
        XCTAssertEqual(lines(load(fine)), [])
    }

    func testFarImportedRegionsAreSummarizedPerImport() {
        var features: [String] = []
        for i in 0..<5 {
            features.append("{\"type\": \"Feature\", \"id\": \"p\(i)\", \"properties\": {}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [8.54, 47.37]}}")
        }
        for i in 5..<8 {
            features.append("{\"type\": \"Feature\", \"id\": \"p\(i)\", \"properties\": {}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [47.37, 8.54]}}")
        }
        let geo = "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
        let text = Self.importCampaign
        let out = lines(load(text, files: ["p.geojson": geo]))
        XCTAssertEqual(out.count, 1, out.joined(separator: "\n"))
        XCTAssertTrue(out.first?.hasPrefix("3:15: warning: 3 regions imported from p.geojson are far away; the first: the region 'p5' at \"8.54, 47.37\" is ") == true, out.joined())
    }
}
