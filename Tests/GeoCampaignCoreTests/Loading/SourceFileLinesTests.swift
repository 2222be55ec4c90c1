import XCTest
@testable import GeoCampaignCore

/// Source lines are cut from the file's bytes only when a diagnostic quotes one: every line
/// break YAML knows ("\n", "\r\n", "\r") ends a line, a final break starts an empty last line,
/// and invalid UTF-8 shows as U+FFFD.
final class SourceFileLinesTests: XCTestCase {
    func testLinesAreCutAtEveryKindOfBreak() {
        let cases: [(bytes: [UInt8], lines: [String])] = [
            (Array("a: 1\nb: 2".utf8), ["a: 1", "b: 2"]),
            (Array("a: 1\r\nb: 2\r\n".utf8), ["a: 1", "b: 2", ""]),
            (Array("a\rb\r\rc".utf8), ["a", "b", "", "c"]),
            (Array("\n\n".utf8), ["", "", ""]),
            (Array("é: ü\n".utf8), ["é: ü", ""]),
            ([0x61, 0xFF, 0x0A, 0x62], ["a\u{FFFD}", "b"]),
            ([], [""]),
        ]
        for (bytes, lines) in cases {
            let file = SourceFile(path: "x.yaml", bytes: bytes)
            for (n, want) in lines.enumerated() { XCTAssertEqual(file.line(n + 1), want, "line \(n + 1) of \(bytes)") }
            XCTAssertNil(file.line(lines.count + 1), "past the end of \(bytes)")
            XCTAssertNil(file.line(0))
            // The same lines as splitting the decoded text (what the loader did before).
            let text = String(decoding: bytes, as: UTF8.self)
            let split = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
            XCTAssertEqual(split, lines, "reference split of \(bytes)")
        }
    }

    func testDiagnosticQuotesItsLine() {
        let file = SourceFile(path: "c.yaml", bytes: Array("campaign: x\r\nregions: 3\r\n".utf8))
        file.error(SourceMark(line: 2, column: 10), "'regions' takes a list")
        XCTAssertEqual(file.diagnostics.first?.sourceLine, "regions: 3")
        file.warning(SourceMark(line: 9, column: 1), "beyond the end")
        XCTAssertNil(file.diagnostics.last?.sourceLine)
    }
}

extension SourceFileLinesTests {
    /// Diagnostics quoting the same line share one string: a minified GeoJSON file is one line
    /// that thousands of feature errors quote.
    func testQuotedLineIsCutOnce() {
        let long = Array(("{\"features\": [" + String(repeating: "1,", count: 50_000) + "1]}").utf8)
        let file = SourceFile(path: "a.geojson", bytes: long)
        for k in 0..<2_000 { file.error(SourceMark(line: 1, column: k + 1), "problem \(k)") }
        XCTAssertEqual(file.diagnostics.count, 2_000)
        let quoted = file.diagnostics.compactMap(\.sourceLine)
        XCTAssertEqual(quoted.count, 2_000)
        XCTAssertEqual(quoted.first?.utf8.count, long.count)
        // One storage for all: the same base address of the contiguous UTF-8.
        var first: UnsafeRawPointer?, same = 0
        for var q in quoted {
            q.withUTF8 { buf in
                if first == nil { first = UnsafeRawPointer(buf.baseAddress) }
                if UnsafeRawPointer(buf.baseAddress) == first { same += 1 }
            }
        }
        XCTAssertEqual(same, 2_000)
    }
}
