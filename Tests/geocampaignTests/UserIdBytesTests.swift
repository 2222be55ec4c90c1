import Foundation
import XCTest

/// Users are told apart by the bytes of their ids (formats 3.1), in every command: "é" written as
/// U+00E9 and as "e" + U+0301 are two users, though Swift's `String` holds them equal. Each test
/// here failed on the build before `UserKey` (f5b1404), which conflated them in the stream's
/// users, the late lines of a stateful run, `explain --user` and `report --user`.
final class UserIdBytesTests: XCTestCase {
    private static let composed = "\u{E9}"
    private static let decomposed = "e\u{301}"
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try ShopCampaignFixture.make(prefix: "gc-userbytes")
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    /// A fix line of `user` at 2026-03-02T`time`Z, in the shop or 11 km north of it.
    private func fix(_ user: String, _ time: String, inShop: Bool) -> String {
        "{\"user\":\"\(user)\",\"ts\":\"2026-03-02T\(time)Z\",\"lat\":\(inShop ? "37.70" : "37.80"),\"lon\":-121.75}\n"
    }

    private func write(_ name: String, _ lines: [String]) throws {
        try lines.joined().write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private func run(_ args: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(args + ["--campaigns", "campaigns", "--quiet"], cwd: dir)
    }

    private func users(ofDecisions text: String) throws -> [String] {
        try text.split(separator: "\n").map { line in
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return o?["user"] as? String ?? ""
        }
    }

    /// The second user's lines come after the first's later fixes: if the stream took both ids
    /// as one user, the second's fixes would be late and its decision lost.
    func testTheStreamKeepsTwoUsersWhoseIdsAreCanonicallyEquivalent() throws {
        let (a, b) = (Self.composed, Self.decomposed)
        try write("in.jsonl", [fix(a, "10:00:00", inShop: true), fix(b, "09:00:00", inShop: true),
                               fix(a, "10:20:00", inShop: false), fix(b, "09:20:00", inShop: false)])
        let stream = try run(["stream", "--state", "s", "--history", "in.jsonl", "--include-suppressed", "--rejects", "r"])
        XCTAssertEqual(stream.status, 0, stream.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("r"), encoding: .utf8), "", "no line is late")
        let batch = try run(["evaluate", "--state", "b", "--history", "in.jsonl", "--include-suppressed"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(Set(try users(ofDecisions: batch.stdout).map { Array($0.utf8) }), [Array(a.utf8), Array(b.utf8)])
        // The same lines; a stream orders the users of one micro-batch by their first line (state.md 2).
        XCTAssertEqual(stream.stdout.split(separator: "\n").sorted(), batch.stdout.split(separator: "\n").sorted(),
                       "the stream prints what a batch run of the same lines prints")
        let info = try BinaryRunner.run(["stream", "--state", "s", "--state-info"], cwd: dir)
        XCTAssertTrue(info.stdout.contains("users: 2\n"), info.stdout)
    }

    /// Only the composed user's second-batch fix is late; the decomposed user's is after its own
    /// last fix (and before the composed user's), so it is accepted and must not be listed.
    func testAStatefulRunListsTheLateLinesOfTheRightUser() throws {
        let (a, b) = (Self.composed, Self.decomposed)
        try write("1.jsonl", [fix(a, "10:00:00", inShop: true), fix(a, "10:20:00", inShop: false),
                              fix(b, "09:00:00", inShop: true), fix(b, "09:20:00", inShop: false)])
        try write("2.jsonl", [fix(a, "10:10:00", inShop: true), fix(b, "09:30:00", inShop: true)])
        XCTAssertEqual(try run(["evaluate", "--state", "s", "--history", "1.jsonl"]).status, 0)
        let second = try run(["evaluate", "--state", "s", "--history", "2.jsonl", "--rejects", "r2"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let rejects = try String(contentsOf: dir.appendingPathComponent("r2"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rejects.count, 1, "\(rejects)")
        let o = try JSONSerialization.jsonObject(with: Data(rejects.first.map { Array($0.utf8) } ?? [])) as? [String: Any]
        XCTAssertEqual(o?["line"] as? Int, 1)
        XCTAssertEqual(o?["reason"] as? String, "late")
    }

    func testExplainFindsTheUserByTheBytesOfItsId() throws {
        try write("h.jsonl", [fix(Self.composed, "10:00:00", inShop: true)])
        let other = try run(["explain", "--history", "h.jsonl", "--user", Self.decomposed])
        XCTAssertEqual(other.status, 65, other.stdout)
        XCTAssertTrue(other.stderr.contains("has no accepted fix in the history"), other.stderr)
        let same = try run(["explain", "--history", "h.jsonl", "--user", Self.composed])
        XCTAssertEqual(same.status, 0, same.stderr)
    }

    func testTheReportDrawsTheUserOfTheSameBytes() throws {
        try write("h.jsonl", [fix(Self.composed, "10:00:00", inShop: true)])
        let other = try run(["report", "--history", "h.jsonl", "--user", Self.decomposed, "--output", "r.html"])
        XCTAssertNotEqual(other.status, 0)
        XCTAssertTrue(other.stderr.contains("has no accepted fix"), other.stderr)
        let same = try run(["report", "--history", "h.jsonl", "--user", Self.composed, "--output", "r.html"])
        XCTAssertEqual(same.status, 0, same.stderr)
    }
}
