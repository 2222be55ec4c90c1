import XCTest
@testable import GeoCampaignCore

final class LoadingDiagnosticTests: XCTestCase {
    func testDescription() {
        let d = Diagnostic(severity: .warning, path: "c/a.yaml", line: 2, column: 5, message: "m", sourceLine: "\tab xyz")
        XCTAssertEqual(d.description, "c/a.yaml:2:5: warning: m\n\tab xyz\n\t   ^")
        let whole = Diagnostic(severity: .error, path: "nope", line: 0, column: 0, message: "no such file or folder: check the path")
        XCTAssertEqual(whole.description, "nope: error: no such file or folder: check the path")
        let combining = Diagnostic(severity: .error, path: "p", line: 1, column: 4, message: "m", sourceLine: "e\u{301}xy")
        XCTAssertEqual(combining.description, "p:1:4: error: m\ne\u{301}xy\n  ^", "the combining accent takes no column on screen")
    }

    func testLongLinesAreCutAroundTheColumn() {
        let line = String(repeating: "a", count: 1000) + "X" + String(repeating: "b", count: 1000)
        let d = Diagnostic(severity: .error, path: "big.geojson", line: 1, column: 1001, message: "m", sourceLine: line)
        let parts = d.description.components(separatedBy: "\n")
        XCTAssertEqual(parts.count, 3)
        XCTAssertEqual(parts[1], "..." + String(repeating: "a", count: 80) + "X" + String(repeating: "b", count: 79) + "...")
        XCTAssertEqual(parts[2], String(repeating: " ", count: 83) + "^")
        let start = Diagnostic(severity: .error, path: "big.geojson", line: 1, column: 3, message: "m", sourceLine: line)
        XCTAssertEqual(start.description.components(separatedBy: "\n")[2], "  ^")
        XCTAssertEqual(start.description.components(separatedBy: "\n")[1], String(repeating: "a", count: 160) + "...")
    }
}
