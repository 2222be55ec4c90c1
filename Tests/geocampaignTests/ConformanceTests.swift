import Foundation
import XCTest

/// The contract's worked example (a copy of spec/examples/conformance-1): events, decisions and
/// rejects must match the independent implementation's output.
final class ConformanceTests: XCTestCase {
    static let dir = BinaryRunner.root.appendingPathComponent("Tests/Data/conformance-1")

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(obj as? [String: Any], String(line))
        }
    }

    func testEventsMatchLineForLine() throws {
        let r = try BinaryRunner.run(["events", "--campaigns", "campaigns", "--history", "history.jsonl", "--quiet"], cwd: Self.dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let want = try String(contentsOf: Self.dir.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let got = r.stdout.split(separator: "\n"), expected = want.split(separator: "\n")
        XCTAssertEqual(got.count, expected.count)
        for (i, (g, w)) in zip(got, expected).enumerated() where g != w {
            XCTFail("event line \(i + 1):\n got  \(g)\n want \(w)")
            break
        }
    }

    func testDecisionsMatchInOrderWithEvidenceAsSets() throws {
        let r = try BinaryRunner.run(["evaluate", "--include-suppressed", "--campaigns", "campaigns", "--history", "history.jsonl", "--quiet"], cwd: Self.dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let got = try jsonLines(r.stdout)
        let want = try jsonLines(try String(contentsOf: Self.dir.appendingPathComponent("decisions.jsonl"), encoding: .utf8))
        XCTAssertEqual(got.count, want.count)
        func key(_ d: [String: Any]) -> String {
            ["user", "time", "campaign", "rule", "offer", "status", "message"].map { "\(d[$0] ?? "-")" }.joined(separator: " ")
        }
        func evidence(_ d: [String: Any]) -> Set<String> {
            Set(((d["evidence"] as? [[String: Any]]) ?? []).map { e in
                ["region", "enter", "exit"].map { "\(e[$0] ?? "-")" }.joined(separator: " ")
            })
        }
        for (i, (g, w)) in zip(got, want).enumerated() {
            guard key(g) == key(w) else {
                XCTFail("decision \(i + 1):\n got  \(key(g))\n want \(key(w))")
                break
            }
            if w["rule"] as? String != "post-workout" {
                XCTAssertEqual(evidence(g), evidence(w), "evidence of decision \(i + 1): \(key(w))")
            }
        }
    }

    func testRejectsMatchLineAndReason() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-rejects-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let r = try BinaryRunner.run(["events", "--campaigns", "campaigns", "--history", "history.jsonl", "--quiet", "--rejects", tmp.path], cwd: Self.dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let got = try jsonLines(try String(contentsOf: tmp, encoding: .utf8)).map { "\($0["line"] ?? "") \($0["reason"] ?? "")" }
        let want = try jsonLines(try String(contentsOf: Self.dir.appendingPathComponent("rejects.jsonl"), encoding: .utf8)).map { "\($0["line"] ?? "") \($0["reason"] ?? "")" }
        XCTAssertEqual(got, want)
    }
}

/// `--threads` changes the speed, never the output.
final class ThreadCountTests: XCTestCase {
    func testThreadsOneAndTwoGiveIdenticalOutput() throws {
        for command in [["evaluate", "--include-suppressed"], ["events"]] {
            let args = command + ["--campaigns", "campaigns", "--history", "history.jsonl", "--quiet"]
            let one = try BinaryRunner.run(args + ["--threads", "1"], cwd: ConformanceTests.dir)
            let two = try BinaryRunner.run(args + ["--threads", "2"], cwd: ConformanceTests.dir)
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertFalse(one.stdout.isEmpty)
            XCTAssertEqual(one.stdout, two.stdout, command[0])
        }
    }
}
