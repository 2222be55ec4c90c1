import XCTest
@testable import GeoCampaignCore

/// The decisions writer (bound to the campaign set once) writes the contract's expected lines.
final class DecisionsWriterPreparedTests: XCTestCase {
    func testPreparedWriterWritesTheContractsDecisions() throws {
        let loaded = CampaignLoader().load(paths: [TestData.path("conformance-1/campaigns")])
        XCTAssertFalse(loaded.hasErrors)
        let builder = HistoryBuilder()
        try builder.read(path: TestData.path("conformance-1/history.jsonl"))
        let history = builder.finish()
        let replay = Replay(campaigns: loaded.campaignSet, options: .init(threads: 1))
        let order = Replay.byteOrder(history.userIds)
        var outcomes: [UserOutcome] = []
        for u in order {
            if let o = replay.outcome(userId: history.userIds[u], fixes: history.fixes[u]) { outcomes.append(o) }
        }
        XCTAssertEqual(outcomes.count, 30)
        let expected = try String(contentsOfFile: TestData.path("conformance-1/decisions.jsonl"), encoding: .utf8)
        func render(_ format: DecisionFormat, suppressed: Bool) -> String {
            let prepared = DecisionsWriter(format: format, includeSuppressed: suppressed).prepared(for: loaded.campaignSet)
            var out: [UInt8] = []
            for o in outcomes { prepared.append(o, to: &out) }
            return String(decoding: out, as: UTF8.self)
        }
        // With every status, suppressed decisions end with their reason (docs/cli.md); without it
        // each line is the contract's.
        let all = render(.jsonl, suppressed: true)
        XCTAssertEqual(Self.withoutReasons(all), expected)
        for line in all.split(separator: "\n") {
            XCTAssertEqual(line.contains(#","reason":{"#), !line.contains(#""status":"delivered","#), String(line))
        }
        XCTAssertTrue(all.contains(#""message":"#))
        XCTAssertTrue(all.contains(#""exit":null"#))
        let delivered = expected.split(separator: "\n").filter { $0.contains(#""status":"delivered""#) }
        XCTAssertEqual(render(.jsonl, suppressed: false), delivered.map { $0 + "\n" }.joined())
        // CSV: one line per decision, in the same order, with user, campaign, rule and status.
        let csv = render(.csv, suppressed: true).split(separator: "\n")
        let lines = expected.split(separator: "\n")
        XCTAssertEqual(csv.count, lines.count)
        XCTAssertGreaterThan(lines.count, 150)
        for (c, j) in zip(csv, lines) {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(j.utf8)) as? [String: Any])
            for key in ["user", "campaign", "rule", "status"] {
                XCTAssertTrue(c.contains(try XCTUnwrap(json[key] as? String)), "\(c) lacks \(key)")
            }
        }
        // The plain entry point writes the same as the prepared one.
        var plain: [UInt8] = []
        let writer = DecisionsWriter(format: .jsonl, includeSuppressed: true)
        for o in outcomes { writer.append(o, campaigns: loaded.campaignSet, to: &plain) }
        XCTAssertEqual(String(decoding: plain, as: UTF8.self), all)
    }

    /// Lines with their trailing `,"reason":{...}` removed (the reason is always last).
    static func withoutReasons(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let r = line.range(of: #","reason":{"#) else { return String(line) }
            return String(line[..<r.lowerBound]) + "}"
        }.joined(separator: "\n")
    }
}
