import XCTest
@testable import GeoCampaignCore

/// The prepared writer (campaign and rule text rendered once) writes exactly what the plain one does.
final class DecisionsWriterPreparedTests: XCTestCase {
    func testPreparedWriterEqualsPlainWriterOnTheConformanceCases() throws {
        let loaded = CampaignLoader().load(paths: [TestData.path("conformance-1/campaigns")])
        XCTAssertFalse(loaded.hasErrors)
        let builder = HistoryBuilder()
        try builder.read(path: TestData.path("conformance-1/history.jsonl"))
        let history = builder.finish()
        let replay = Replay(campaigns: loaded.campaignSet, options: .init(threads: 1))
        var outcomes: [UserOutcome] = []
        for u in 0..<history.userCount {
            if let o = replay.outcome(userId: history.userIds[u], fixes: history.fixes[u]) { outcomes.append(o) }
        }
        XCTAssertEqual(outcomes.count, 30)
        var lines = 0, withMessage = 0, withOpenVisit = 0
        for format in [DecisionFormat.jsonl, .csv] {
            for suppressed in [false, true] {
                let writer = DecisionsWriter(format: format, includeSuppressed: suppressed)
                let prepared = writer.prepared(for: loaded.campaignSet)
                for o in outcomes {
                    var plain: [UInt8] = [], fast: [UInt8] = []
                    writer.append(o, campaigns: loaded.campaignSet, to: &plain)
                    prepared.append(o, to: &fast)
                    XCTAssertEqual(String(decoding: fast, as: UTF8.self), String(decoding: plain, as: UTF8.self), o.userId)
                    let text = String(decoding: plain, as: UTF8.self)
                    lines += text.split(separator: "\n").count
                    if format == .jsonl {
                        withMessage += text.components(separatedBy: #""message":"#).count - 1
                        withOpenVisit += text.components(separatedBy: #""exit":null"#).count - 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(lines, 300)
        XCTAssertGreaterThan(withMessage, 0)
        XCTAssertGreaterThan(withOpenVisit, 0)
    }
}
