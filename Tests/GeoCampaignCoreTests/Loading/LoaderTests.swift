import XCTest
@testable import GeoCampaignCore

/// Folders, several files, and the YAML rules of formats.md 1.6.
final class LoadingLoaderTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "geocampaign-loader-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8))
    }

    private func campaign(_ id: String, extra: String = "") -> String {
        """
        campaign: \(id)
        \(extra)regions:
          - { id: store, tags: [shop], circle: { center: "37.70, -121.75", radius: 150m } }
        rules:
          - { id: r, when: { inside: { regions: [store] } }, offer: o }
        offers:
          - id: o

        """
    }

    func testFolderLoadsYamlFilesSortedByName() {
        write("b.yml", campaign("bee"))
        write("a.yaml", campaign("ay"))
        write("c.txt", "not: yaml at all: [")
        write("Z.yaml", campaign("zed"))
        try? FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/sub/d.yaml", contents: Data(campaign("sub").utf8))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics, [])
        XCTAssertEqual(r.campaignSet.campaigns.map(\.id), ["zed", "ay", "bee"], "byte order: 'Z' < 'a'")
        XCTAssertEqual(r.campaignSet.campaigns.map(\.file), [dir + "/Z.yaml", dir + "/a.yaml", dir + "/b.yml"])
        let r2 = CampaignLoader().load(paths: [dir + "/"])
        XCTAssertEqual(r2.campaignSet.campaigns.first?.file, dir + "/Z.yaml", "no doubled slash")
    }

    func testMissingPathIsUnreadable() {
        let r = CampaignLoader().load(paths: [dir + "/nope", dir + "/nope.yaml"])
        XCTAssertEqual(r.unreadablePaths, [dir + "/nope", dir + "/nope.yaml"])
        XCTAssertEqual(r.diagnostics.map(\.description), [
            "\(dir)/nope: error: no such file or folder: check the path",
            "\(dir)/nope.yaml: error: no such file or folder: check the path",
        ])
        XCTAssertTrue(r.hasErrors)
    }

    func testEmptyFolderWarns() {
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), ["\(dir): warning: this folder holds no *.yaml or *.yml files: no campaigns loaded from it"])
        XCTAssertFalse(r.hasErrors)
    }

    func testDuplicateCampaignIdsAcrossFiles() {
        write("a.yaml", campaign("same"))
        write("b.yaml", campaign("same"))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), ["""
        \(dir)/b.yaml:1:1: error: the campaign id 'same' is already used in \(dir)/a.yaml: campaign ids must be unique across all files
        campaign: same
        ^
        """])
        XCTAssertEqual(r.campaignCount, 1)
    }

    func testTwoSettingsFiles() {
        write("s1.yaml", "settings:\n  limits: { per_user: 2 per 24h }\n")
        write("s2.yaml", "settings:\n  limits: { per_user: 5 per 24h }\n")
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), ["""
        \(dir)/s2.yaml:1:1: error: there is already a settings file (\(dir)/s1.yaml): keep one settings file and merge the two
        settings:
        ^
        """])
        XCTAssertEqual(r.campaignSet.settings.perUserLimit, Cap(count: 2, perMs: 86_400_000))
    }

    func testAllProblemsOfAllFilesInOneRun() {
        write("a.yaml", campaign("a").replacingOccurrences(of: "150m", with: "0m"))
        write("b.yaml", campaign("b").replacingOccurrences(of: "offer: o", with: "offer: x"))
        let r = CampaignLoader().load(paths: [dir + "/a.yaml", dir + "/b.yaml"])
        XCTAssertEqual(r.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column)" }, ["a.yaml:3:76", "b.yaml:5:61"])
        XCTAssertEqual(r.errorCount, 2)
    }

    func testMergeKeysAndAnchors() throws {
        write("m.yaml", """
        campaign: merge
        defaults: &defaults
        regions:
          - &base { id: a, tags: [shop], circle: { center: "37.70, -121.75", radius: 150m }, confirm: 10s }
          - <<: *base
            id: b
          - <<: [{ confirm: 5s, hysteresis: 3m }, *base]
            id: c
        rules:
          - { id: r, when: { inside: { tags: [shop] } }, offer: o }
        offers:
          - id: o
        """.replacingOccurrences(of: "defaults: &defaults\n", with: ""))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), [])
        let regions = try XCTUnwrap(r.campaignSet.campaigns.first?.regions)
        XCTAssertEqual(regions.map(\.id), ["a", "b", "c"])
        XCTAssertEqual(regions.map(\.confirmMs), [10_000, 10_000, 5_000], "explicit keys win, then earlier merges")
        XCTAssertEqual(regions.map(\.hysteresisM), [nil, nil, 3])
    }

    func testScalarsAreReadAsTheKeyExpects() throws {
        write("s.yaml", """
        campaign: "123"
        regions:
          - { id: 1.0, tags: [no, on, yes, off, null, "true", ~], circle: { center: { lat: "37.7", lon: -121.75 }, radius: "150" } }
        rules:
          - { id: r, when: { visited: { tags: [no], distinct: "true", at_least: "2" } }, offer: o }
        offers:
          - { id: o, priority: "10", message: 2026-03-01 }
        """)
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), [
            "\(dir)/s.yaml:3:41: error: an item of 'tags' is empty: write a name there, in quotes if it is a word like null or ~\n  - { id: 1.0, tags: [no, on, yes, off, null, \"true\", ~], circle: { center: { lat: \"37.7\", lon: -121.75 }, radius: \"150\" } }\n                                        ^",
            "\(dir)/s.yaml:3:55: error: an item of 'tags' is empty: write a name there, in quotes if it is a word like null or ~\n  - { id: 1.0, tags: [no, on, yes, off, null, \"true\", ~], circle: { center: { lat: \"37.7\", lon: -121.75 }, radius: \"150\" } }\n                                                      ^",
        ])
        write("s.yaml", """
        campaign: "123"
        regions:
          - { id: 1.0, tags: [no, on, yes, off, "null", "true"], circle: { center: { lat: "37.7", lon: -121.75 }, radius: "150" } }
        rules:
          - { id: r, when: { visited: { tags: [no], distinct: "true", at_least: "2" } }, offer: o }
        offers:
          - { id: o, priority: "10", message: 2026-03-01 }
        """)
        let r2 = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r2.diagnostics.map(\.description), [])
        let c = try XCTUnwrap(r2.campaignSet.campaigns.first)
        XCTAssertEqual(c.id, "123")
        XCTAssertEqual(c.regions.first?.id, "1.0")
        XCTAssertEqual(c.regions.first?.tags, ["no", "on", "yes", "off", "null", "true"])
        XCTAssertEqual(c.offers.first?.priority, 10)
        XCTAssertEqual(c.offers.first?.message, "2026-03-01")
        guard case .visited(let v) = c.rules.first?.condition else { return XCTFail("not visited") }
        XCTAssertTrue(v.distinct)
        XCTAssertEqual(v.atLeast, 2)
        guard case .circle(let center, let radius) = c.regions.first?.shape else { return XCTFail("not a circle") }
        XCTAssertEqual(center, Coordinate(lat: 37.7, lon: -121.75))
        XCTAssertEqual(radius, 150)
    }

    func testCRLFLineEnds() {
        write("w.yaml", campaign("win").replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "offer: o }", with: "offer: x }"))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), ["""
        \(dir)/w.yaml:5:61: error: no offer 'x' in this campaign: the offers are o
          - { id: r, when: { inside: { regions: [store] } }, offer: x }
                                                                    ^
        """])
        XCTAssertEqual(r.summary, "1 campaign, 1 region, 0 rules, 1 offer: 1 error, 0 warnings")
    }

    func testInvalidUTF8AndOddDocuments() {
        _ = FileManager.default.createFile(atPath: dir + "/bin.yaml", contents: Data([0x63, 0x61, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]))
        write("null.yaml", "---\n")
        write("scalar.yaml", "just text\n")
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column): \($0.message)" }, [
            "bin.yaml:1:5: the file is not valid UTF-8 text here (invalid leading UTF-8 octet): save it as UTF-8",
            "null.yaml:1:1: the file has no content: a campaign file starts with 'campaign: <id>', a settings file with 'settings:'",
            "scalar.yaml:1:1: a campaign file is a mapping that starts with 'campaign: <id>' (a settings file with 'settings:'), not a single value",
        ])
    }

    func testRecursiveAliasIsAnError() {
        write("r.yaml", "campaign: x\nregions: &r\n  - *r\n")
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.first?.description, """
        \(dir)/r.yaml:3:5: error: the alias '*r' refers to the node that contains it: an alias cannot repeat its own parent
          - *r
            ^
        """)
    }

    func testNothingIsExecuted() {
        write("t.yaml", campaign("tagged", extra: "name: !!python/object/apply:os.system [\"touch \(dir)/pwned\"]\n"))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/pwned"))
        XCTAssertEqual(r.diagnostics.first?.message, "'name' takes a single value, not a list: write for example name: Spring sale")
    }

    func testActiveInstantsAndDateAtDaylightSavingGap() throws {
        // Chile skips midnight: 2026-09-06 00:00 does not exist in America/Santiago; clocks jump to 01:00.
        write("a.yaml", campaign("a", extra: "active: { from: 2026-09-06, until: \"2026-09-07T12:00:00.5-03:00\", timezone: America/Santiago }\n")
            .replacingOccurrences(of: "37.70, -121.75", with: "-33.44, -70.65"))
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), [])
        let a = try XCTUnwrap(r.campaignSet.campaigns.first?.active)
        XCTAssertEqual(a.fromMs.map(Timestamp.string), "2026-09-06T04:00:00Z")
        XCTAssertEqual(a.untilMs.map(Timestamp.string), "2026-09-07T15:00:00.500Z")
    }
}
