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
}
