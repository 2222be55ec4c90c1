import Foundation
import XCTest
@testable import GeoCampaignCore

/// The conformance example's history must give exactly its rejects.jsonl (line, reason) list.
final class HistoryConformanceRejectsTests: XCTestCase {
    func testRejectsMatchExpectedLinesAndReasons() throws {
        let dir = HistoryTestPaths.sharedPath("spec/examples/conformance-1")
        let builder = HistoryBuilder()
        var got: [String] = []
        builder.onReject = { r in got.append("\(r.line) \(r.reason.rawValue)") }
        try builder.read(path: dir + "/history.jsonl")
        let history = builder.finish()

        let expectedText = try String(contentsOfFile: dir + "/rejects.jsonl", encoding: .utf8)
        var expected: [String] = []
        for line in expectedText.split(separator: "\n") {
            let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let n = try XCTUnwrap(obj["line"] as? Int)
            let reason = try XCTUnwrap(obj["reason"] as? String)
            expected.append("\(n) \(reason)")
        }
        XCTAssertEqual(expected.count, 101)
        XCTAssertEqual(got, expected)
        XCTAssertEqual(history.stats.linesRead, 9937)
        XCTAssertEqual(history.stats.totalRejected, 101)
        XCTAssertEqual(history.stats.fixesAccepted, 9937 - 101 - history.stats.blankLines)
        XCTAssertEqual(history.userCount, 30)
        for fixes in history.fixes {
            XCTAssertFalse(fixes.isEmpty)
            for k in fixes.indices.dropFirst() { XCTAssertLessThanOrEqual(fixes[k - 1].time, fixes[k].time) }
        }
    }
}
