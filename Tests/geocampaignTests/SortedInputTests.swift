import Foundation
import XCTest

/// `--sorted`: input grouped by user is streamed, with the same output; input that breaks the
/// promise is a clear error naming the line.
final class SortedInputTests: XCTestCase {
    /// examples/visits.jsonl regrouped by user (byte order of the id), each user's lines in file order.
    private func groupedExample() throws -> URL {
        let text = try String(contentsOf: BinaryRunner.root.appendingPathComponent("examples/visits.jsonl"), encoding: .utf8)
        var groups: [String: [Substring]] = [:]
        for line in text.split(separator: "\n") {
            let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            groups["\(obj["user"] ?? "")", default: []].append(line)
        }
        let users = groups.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let out = users.flatMap { groups[$0] ?? [] }.joined(separator: "\n") + "\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gc-grouped-\(UUID().uuidString).jsonl")
        try Data(out.utf8).write(to: url)
        return url
    }

    func testSortedStreamingGivesTheSameOutput() throws {
        let grouped = try groupedExample()
        defer { try? FileManager.default.removeItem(at: grouped) }
        for command in [["evaluate", "--include-suppressed"], ["events"]] {
            let normal = try BinaryRunner.run(command + ["--history", "examples/visits.jsonl", "--quiet"])
            for threads in ["1", "2"] {
                let streamed = try BinaryRunner.run(command + ["--history", grouped.path, "--sorted", "--threads", threads, "--quiet"])
                XCTAssertEqual(streamed.status, 0, streamed.stderr)
                XCTAssertFalse(normal.stdout.isEmpty)
                XCTAssertEqual(streamed.stdout, normal.stdout, "\(command[0]) --threads \(threads)")
            }
        }
    }

    func testUngroupedInputIsAnErrorNamingTheLine() throws {
        let r = try BinaryRunner.run(["events", "--history", "examples/visits.jsonl", "--sorted", "--quiet"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasPrefix("error: examples/visits.jsonl:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("appears again after other users; --sorted needs each user's lines together"), r.stderr)
    }

    /// 2,000 users grouped by user, each entering Lorrenzillo's: enough users for many blocks in flight.
    private func manyUsers(comingBack: Bool) throws -> URL {
        var lines: [String] = []
        for u in 0..<2_000 {
            for m in 0..<12 {
                lines.append(#"{"user": "u\#(u)", "ts": "2026-11-16T18:\#(String(format: "%02d", m * 4)):00Z", "lat": 37.703026, "lon": -121.759735, "accuracy": 10}"#)
            }
        }
        // The first user's last line again, after every other user.
        if comingBack { lines.append(lines[11]) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gc-many-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }

    /// Regression (issue 10 item 3): the error paths of the stream trapped in libdispatch (SIGILL)
    /// when blocks were still in flight; they now give their documented messages.
    func testSortedErrorPathsWithBlocksInFlightExitCleanly() throws {
        let good = try manyUsers(comingBack: false), back = try manyUsers(comingBack: true)
        defer { try? FileManager.default.removeItem(at: good); try? FileManager.default.removeItem(at: back) }
        let ok = try BinaryRunner.run(["events", "--history", good.path, "--sorted", "--quiet"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertGreaterThan(ok.stdout.split(separator: "\n").count, 1_000, "the control run must write enough to fill a full device")
        let full = try BinaryRunner.run(["events", "--history", good.path, "--sorted", "--quiet", "--output", "/dev/full"])
        XCTAssertEqual(full.status, 1, full.stderr)
        XCTAssertTrue(full.stderr.hasPrefix("error: /dev/full: write failed"), full.stderr)
        let again = try BinaryRunner.run(["events", "--history", back.path, "--sorted", "--quiet"])
        XCTAssertEqual(again.status, 65, again.stderr)
        XCTAssertTrue(again.stderr.contains(":24001: user 'u0' appears again after other users"), again.stderr)
    }
}
