import Foundation
import XCTest

/// A history of which no line was accepted is an error (exit 65) that says why and what to do
/// (issue 10 item 18); before, it was exit 0 with empty output.
final class NoFixAcceptedTests: XCTestCase {
    private func run(_ command: String, stdin: String, _ extra: [String] = []) throws -> BinaryRunner.Result {
        try BinaryRunner.run([command, "--history", "-", "--quiet"] + extra, stdin: Data(stdin.utf8))
    }

    func testMissingFieldsNameTheKeysTheLinesHave() throws {
        let lines = #"{"device_id":"a","timestamp":"2026-11-16T18:00:00Z","latitude":37.70,"lng":-121.75}"# + "\n"
        for command in ["evaluate", "events"] {
            let r = try run(command, stdin: lines + lines)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(r.stderr, "error: standard input: no line was accepted: all 2 rejected, most as missing_field (2), e.g. line 1: missing field \"user\"; the lines have the keys device_id, latitude, lng, timestamp (use --field user=device_id --field ts=timestamp --field lat=latitude --field lon=lng?)\n")
        }
        // Following the advice works.
        let fixed = try run("events", stdin: lines, ["--field", "user=device_id", "--field", "ts=timestamp", "--field", "lat=latitude", "--field", "lon=lng"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
    }

    func testGPXAndCSVOnStandardInputAreRecognised() throws {
        let gpx = try String(contentsOf: BinaryRunner.root.appendingPathComponent("examples/lorrenzillos-dinner.gpx"), encoding: .utf8)
        let g = try run("evaluate", stdin: gpx)
        XCTAssertEqual(g.status, 65)
        XCTAssertTrue(g.stderr.contains("most as invalid_json"), g.stderr)
        XCTAssertTrue(g.stderr.contains("standard input holds GPX (XML)"), g.stderr)
        let c = try run("evaluate", stdin: "user;ts;lat;lon\na;2026-11-16T18:00:00Z;37.7;-121.7\n")
        XCTAssertEqual(c.status, 65)
        XCTAssertTrue(c.stderr.contains("looks like CSV"), c.stderr)
    }

    /// The most common reason is named, whatever the order of the lines.
    func testTheMostCommonReasonIsNamed() throws {
        let bad = #"{"user":"a","ts":"yesterday","lat":1,"lon":2}"# + "\n"
        let r = try run("events", stdin: "{\n" + bad + bad + bad)
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasPrefix("error: standard input: no line was accepted: all 4 rejected, most as bad_timestamp (3), e.g. line 2: "), r.stderr)
    }

    /// Negative controls: one accepted line, or a history with no line at all, is no error.
    func testOneGoodLineOrNoLineIsNoError() throws {
        let good = #"{"user":"a","ts":"2026-11-16T18:00:00Z","lat":37.7,"lon":-121.7}"# + "\n"
        let r = try run("events", stdin: "{\n" + good)
        XCTAssertEqual(r.status, 0, r.stderr)
        let empty = try run("events", stdin: "\n\n")
        XCTAssertEqual(empty.status, 0, empty.stderr)
    }
}
