import XCTest
@testable import GeoCampaignCore

final class LoadingJSONParserTests: XCTestCase {
    static let suite = TestData.path("JSONTestSuite/test_parsing")

    /// nst/JSONTestSuite: every y_ file parses, every n_ file is rejected, i_ files do not crash.
    func testJSONTestSuite() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.suite), "JSONTestSuite not present")
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.suite).sorted()
        XCTAssertGreaterThan(names.count, 300)
        for name in names {
            guard let data = FileManager.default.contents(atPath: Self.suite + "/" + name) else { continue }
            var parser = JSONParser(bytes: [UInt8](data))
            let ok: Bool
            do {
                _ = try parser.parse()
                ok = true
            } catch {
                ok = false
                XCTAssertGreaterThanOrEqual(error.mark.line, 1, name)
            }
            if name.hasPrefix("y_") { XCTAssertTrue(ok, "\(name) should parse") }
            // Invalid UTF-8 inside strings is replaced, not rejected: that is a reader's choice RFC 8259 leaves open.
            if name.hasPrefix("n_") && !name.contains("UTF8") && !name.contains("utf8") { XCTAssertFalse(ok, "\(name) should be rejected") }
        }
    }

    func testMarksAndValues() throws {
        var p = JSONParser(bytes: Array("{\n  \"a\": [1, 2.50, -3e2],\n  \"é\": \"x\\u00e9\\ud83d\\ude00\", \"n\": 12345678901\n}".utf8))
        let root = try p.parse()
        XCTAssertEqual(root.mark, SourceMark(line: 1, column: 1))
        let a = try XCTUnwrap(root["a"]?.array)
        XCTAssertEqual(a.map(\.mark), [SourceMark(line: 2, column: 9), SourceMark(line: 2, column: 12), SourceMark(line: 2, column: 18)])
        XCTAssertEqual(a.compactMap(\.text), ["1", "2.50", "-300"])
        XCTAssertEqual(root["é"]?.string, "xé😀")
        XCTAssertEqual(root["é"]?.mark, SourceMark(line: 3, column: 8), "é is one column")
        XCTAssertEqual(root["n"]?.text, "12345678901")
        var bad = JSONParser(bytes: Array("{\"a\": [1, 2,]}".utf8))
        XCTAssertThrowsError(try bad.parse()) { XCTAssertEqual(($0 as? YAMLProblem)?.mark, SourceMark(line: 1, column: 13)) }
    }

    func testDeepNestingIsRejectedNotCrashing() {
        var p = JSONParser(bytes: Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        XCTAssertThrowsError(try p.parse()) {
            XCTAssertEqual(($0 as? YAMLProblem)?.message, "the JSON is nested more than 64 levels deep")
        }
    }
}
