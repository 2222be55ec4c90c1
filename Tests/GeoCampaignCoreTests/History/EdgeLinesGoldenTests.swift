import Foundation
import XCTest
@testable import GeoCampaignCore

/// 1,400 generated lines full of edge cases (timestamps at every boundary, numbers of every shape,
/// escapes, lone surrogates, duplicate and escaped keys, truncations) against the outcome an
/// independent implementation of formats.md 2.1 (Python, strict `json` plus `decimal`) gives.
/// Expected lines: the reason, or `ok USER-HEX TIME-MS LAT-BITS LON-BITS ACCURACY-BITS|nan`.
final class HistoryEdgeLinesGoldenTests: XCTestCase {
    func testEveryLineMatchesTheIndependentImplementation() throws {
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: HistoryTestPaths.fixture("edge-lines.jsonl"))))
        let expected = try String(contentsOfFile: HistoryTestPaths.fixture("edge-lines.expected"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var got: [String] = []
        var rejectCount = 0
        let builder = HistoryBuilder()
        builder.onReject = { _ in rejectCount += 1 }
        let parser = JSONLineParser()
        var start = 0
        for (i, b) in input.enumerated() where b == 0x0A {
            switch parser.parse(line: Array(input[start..<i])) {
            case .blank: got.append("blank")
            case .rejected(let r, _): got.append(r.rawValue)
            case .accepted(let u, let f):
                let hex = u.utf8.map { String(format: "%02x", $0) }.joined()
                let acc = f.accuracy.isNaN ? "nan" : "\(f.accuracy.bitPattern)"
                got.append("ok \(hex) \(f.time) \(f.lat.bitPattern) \(f.lon.bitPattern) \(acc)")
            }
            start = i + 1
        }
        XCTAssertEqual(got.count, 1_400)
        XCTAssertEqual(got.count, expected.count)
        for (k, (g, e)) in zip(got, expected).enumerated() where g != e {
            XCTFail("line \(k + 1): got \(g), expected \(e)")
        }
        // The file reader agrees with the line parser.
        try builder.read(path: HistoryTestPaths.fixture("edge-lines.jsonl"))
        XCTAssertEqual(rejectCount, expected.filter { !$0.hasPrefix("ok") && $0 != "blank" }.count)
        XCTAssertEqual(builder.stats.fixesAccepted, expected.filter { $0.hasPrefix("ok") }.count)
        XCTAssertEqual(builder.stats.blankLines, expected.filter { $0 == "blank" }.count)
    }
}
