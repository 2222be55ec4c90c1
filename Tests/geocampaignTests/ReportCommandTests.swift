import Foundation
import XCTest

/// `geocampaign report` run as a user runs it: the contract's worked example (a copy of
/// spec/examples/report-1) field by field, the HTML page, and the errors.
final class ReportCommandTests: XCTestCase {
    static let dir = BinaryRunner.root.appendingPathComponent("Tests/Data/report-1")

    /// `x` as (path, leaf) pairs: lists of objects are keyed by their campaign, rule or offer id.
    private func flat(_ x: Any, _ prefix: String = "", into out: inout [String: Any]) {
        if let d = x as? [String: Any] {
            for (k, v) in d { flat(v, prefix + "." + k, into: &out) }
        } else if let a = x as? [[String: Any]], !a.isEmpty {
            for (i, e) in a.enumerated() {
                let key = ["campaign", "rule", "offer"].first { e[$0] != nil }.map { "\(e[$0] ?? "")" } ?? "\(i)"
                flat(e, prefix + "[" + key + "]", into: &out)
            }
        } else {
            out[prefix] = x
        }
    }

    private func same(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? NSNumber, let y = b as? NSNumber, !(a is Bool), !(b is Bool) {
            let u = x.doubleValue, v = y.doubleValue
            return abs(u - v) <= max(1e-12, 1e-9 * max(abs(u), abs(v)))
        }
        if let x = a as? [Any], let y = b as? [Any] { return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) } }
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        return "\(a)" == "\(b)"
    }

    func testTheJSONOfTheWorkedExampleMatchesFieldByField() throws {
        let r = try BinaryRunner.run(["report", "--format", "json", "--campaigns", "campaigns", "--history", "history.jsonl", "--quiet"], cwd: Self.dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        var got: [String: Any] = [:], want: [String: Any] = [:]
        flat(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), into: &got)
        flat(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dir.appendingPathComponent("report.json"))), into: &want)
        let compared = want.filter { !$0.key.contains(".goal.") }
        XCTAssertGreaterThan(compared.count, 200)
        for (k, v) in compared.sorted(by: { $0.key < $1.key }) {
            guard let g = got[k] else { XCTFail("\(k): absent, want \(v)"); continue }
            XCTAssertTrue(same(g, v), "\(k): got \(g), want \(v)")
        }
    }

    func testTheHTMLGoesToTheOutputFileAndTheSummaryToStderr() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try BinaryRunner.run(["report", "--history", "examples/visits.jsonl", "--output", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("lines read: 1236"), r.stderr)
        let page = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(page.contains("data-campaign=\"lorrenzillos\""))
        XCTAssertTrue(page.contains("class=\"lift-interval\""), "the bundled example's lorrenzillos has a lift to draw")
        XCTAssertFalse(page.contains("http://") || page.contains("https://"))
    }

    func testUserDrawsTheirTrack() throws {
        let r = try BinaryRunner.run(["report", "--history", "examples/visits.jsonl", "--user", "leo", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("<g class=\"user\" data-user=\"leo\">"))
        XCTAssertTrue(r.stdout.contains("<h2>User leo</h2>"))
    }

    func testErrors() throws {
        let cases: [([String], Int32, String)] = [
            (["report", "--history", "examples/visits.jsonl", "--format", "xml"], 64, "error: --format 'xml': expected html or json\n"),
            (["report", "--history", "examples/visits.jsonl", "--format", "json", "--user", "leo"], 64,
             "error: --user draws a user on the HTML report's map; it does not apply to --format json\n"),
            (["report", "--history", "examples/visits.jsonl", "--user", "le0", "--quiet"], 65,
             "error: user 'le0' has no accepted fix in the history (did you mean 'leo'?)\n"),
            (["report"], 64, "error: missing --history FILE\n"),
            (["report", "--history", "no-such-file.jsonl"], 66, "error: no-such-file.jsonl: "),
        ]
        for (args, status, stderr) in cases {
            let r = try BinaryRunner.run(args)
            XCTAssertEqual(r.status, status, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(stderr), "\(args):\n got  \(r.stderr)\n want \(stderr)")
            XCTAssertEqual(r.stdout, "", "\(args)")
        }
    }

    func testACampaignErrorIsToldBeforeAnyHistoryProblem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("report-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "campaign: x\nregions:\n  - { id: a, circle: { center: \"37.7, -121.7\", radius: 100m } }\nrules:\n  - { id: r, when: { inside: { regions: [a] } }, offer: o }\noffers:\n  - id: o\ngoal: { regions: [b], within: 1d }\n"
            .write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run(["report", "--campaigns", dir.path, "--history", "no-such-file.jsonl"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("x.yaml:8:19: error: no region 'b' in this campaign"), r.stderr)
        XCTAssertFalse(r.stderr.contains("no-such-file"), r.stderr)
    }
}
