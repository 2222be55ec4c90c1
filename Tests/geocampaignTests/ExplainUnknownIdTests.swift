import Foundation
import XCTest

/// `explain --user` with an id the history does not have: the nearest id within two edits is
/// suggested, and finding it costs time linear in the ids, not in the product of their lengths
/// (issue 10 item 8's standard for user ids; a 1,000-character id among 2,000 users took more
/// than 2 minutes in a debug build before).
final class ExplainUnknownIdTests: XCTestCase {
    func testALongUnknownUserAmongManyIsAnsweredFastWithTheNearestOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = String(repeating: "x", count: 1000)
        var lines = ""
        for u in 0..<2000 {
            lines += "{\"user\":\"\(long)\(u)\",\"ts\":\"2026-11-17T03:00:00Z\",\"lat\":37.703026,\"lon\":-121.759735}\n"
        }
        try lines.write(to: dir.appendingPathComponent("h.jsonl"), atomically: true, encoding: .utf8)
        let campaign = BinaryRunner.root.appendingPathComponent("campaigns/lorrenzillos.yaml").path
        let r = try BinaryRunner.run(["explain", "--campaigns", campaign, "--history", "h.jsonl", "--user", long + "1999z"], cwd: dir)
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasSuffix("has no accepted fix in the history (did you mean '\(long)1999'?)\n"), String(r.stderr.suffix(200)))
        // Two edits away is still suggested, three is not; short ids as before.
        for (asked, near) in [("user1", "user12"), ("usr12x", "user12"), ("uxxr12x", nil), ("12", nil)] as [(String, String?)] {
            try "{\"user\":\"user12\",\"ts\":\"2026-11-17T03:00:00Z\",\"lat\":37.70,\"lon\":-121.75}\n".write(to: dir.appendingPathComponent("s.jsonl"), atomically: true, encoding: .utf8)
            let s = try BinaryRunner.run(["explain", "--campaigns", campaign, "--history", "s.jsonl", "--user", asked], cwd: dir)
            let suffix = near.map { " (did you mean '\($0)'?)" } ?? ""
            XCTAssertEqual(s.stderr, "error: user '\(asked)' has no accepted fix in the history\(suffix)\n", asked)
        }
    }
}
