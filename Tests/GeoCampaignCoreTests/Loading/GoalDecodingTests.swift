import XCTest
@testable import GeoCampaignCore

/// The campaign key `goal` (measurement.md 1): decoded, and checked like a rule's regions and
/// durations, with file:line:column and did-you-mean.
final class LoadingGoalDecodingTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "geocampaign-goal-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Loads a campaign whose last line is `goalLine` (line 10).
    private func load(_ goalLine: String) -> (LoadResult, [String]) {
        let text = """
        campaign: shop
        regions:
          - { id: store, tags: [own-store], circle: { center: "37.70, -121.75", radius: 150m } }
          - { id: rival, tags: [competitor], circle: { center: "37.71, -121.75", radius: 150m } }
          - { id: outlet, tags: [own-store], circle: { center: "37.72, -121.75", radius: 150m } }
        rules:
          - { id: r, when: { inside: { tags: [competitor] } }, offer: o }
        offers:
          - id: o
        \(goalLine)

        """
        let path = dir + "/shop.yaml"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let r = CampaignLoader().load(paths: [path])
        let errors = r.diagnostics.filter { $0.severity == .error }.map { $0.description.components(separatedBy: "\n")[0].replacingOccurrences(of: dir + "/", with: "") }
        return (r, errors)
    }

    func testAGoalIsDecodedWithItsDefaults() throws {
        let (r, errors) = load("goal: { tags: [own-store], regions: [rival], within: 7d, min_dwell: 5m }")
        XCTAssertEqual(errors, [])
        let g = try XCTUnwrap(r.campaignSet.campaigns.first?.goal)
        XCTAssertEqual(g.selector, RegionSelector(regions: ["rival"], tags: ["own-store"]))
        XCTAssertEqual(g.withinMs, 7 * 86_400_000)
        XCTAssertEqual(g.minDwellMs, 300_000)
        let (r2, _) = load("goal: { regions: [store], within: 12h }")
        XCTAssertEqual(r2.campaignSet.campaigns.first?.goal?.minDwellMs, 0, "min_dwell defaults to 0s")
        XCTAssertNil(load("").0.campaignSet.campaigns.first?.goal, "the goal is optional")
    }

    func testAGoalRegionCountsAsUsed() {
        let (r, _) = load("goal: { regions: [outlet, store], within: 1d }")
        XCTAssertFalse(r.diagnostics.contains { $0.message.contains("no rule can match") },
                       "regions named only by the goal are not reported unused: \(r.diagnostics.map(\.message))")
        let (r2, _) = load("")
        XCTAssertTrue(r2.diagnostics.contains { $0.message.contains("'store'") }, "without the goal they are")
    }

    func testProblemsAreReportedWithTheirPlaceAndASuggestion() {
        let table: [(String, String)] = [
            ("goal: { regions: [stor], within: 7d }", "shop.yaml:10:19: error: no region 'stor' in this campaign: did you mean 'store'?"),
            ("goal: { tags: [own-stor], within: 7d }", "shop.yaml:10:16: error: no region has the tag 'own-stor': did you mean 'own-store'?"),
            ("goal: { regions: [own-store], within: 7d }", "shop.yaml:10:19: error: no region 'own-store' in this campaign, but it is a tag: write tags: [own-store]"),
            ("goal: { tags: [store], within: 7d }", "shop.yaml:10:16: error: no region has the tag 'store', but it is a region id: write regions: [store]"),
            ("goal: { tags: [own-store], within: 7 days }", "shop.yaml:10:36: error: within: "),
            ("goal: { tags: [own-store], within: 0s }", "shop.yaml:10:36: error: within must be longer than 0s"),
            ("goal: { tags: [own-store] }", "shop.yaml:10:9: error: the goal needs 'within'"),
            ("goal: { tags: [own-store], within: 7d, min_dwel: 5m }", "shop.yaml:10:40: error: unknown key 'min_dwel' in the goal: did you mean 'min_dwell'?"),
            ("goal: { tags: [own-store], within: 7d, min_dwell: soon }", "shop.yaml:10:51: error: min_dwell: "),
            ("goal: { within: 7d }", "shop.yaml:10:9: error: say which regions 'goal' is about"),
            ("goal:", "shop.yaml:10:1: error: 'goal' is empty"),
            ("goal: [store]", "shop.yaml:10:7: error: 'goal' must be a mapping"),
            ("goals: { tags: [own-store], within: 7d }", "shop.yaml:10:1: error: unknown key 'goals' in a campaign: did you mean 'goal'?"),
        ]
        for (line, want) in table {
            let (r, errors) = load(line)
            XCTAssertEqual(errors.count, 1, "\(line): \(errors)")
            XCTAssertTrue(errors.first?.hasPrefix(want) ?? false, "\(line):\n got  \(errors.first ?? "nothing")\n want \(want)...")
            XCTAssertTrue(r.hasErrors, line)
        }
    }
}
