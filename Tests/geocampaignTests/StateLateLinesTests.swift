import Foundation
import XCTest

/// Late fixes (state.md 1.2) are listed in `--rejects` with their file's line numbers for JSON
/// Lines and CSV batches alike (a CSV row by the number of its first line, with the header and
/// blank rows counted); a GPX batch's late points are counted but not listed. The CSV cases
/// failed on the build before (f5b1404): the late rows were counted in the summary, and the
/// rejects file stayed empty.
final class StateLateLinesTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try ShopCampaignFixture.make(prefix: "gc-latelines")
        try "{\"user\":\"b\",\"ts\":\"2026-03-02T10:00:00Z\",\"lat\":37.70,\"lon\":-121.75}\n{\"user\":\"b\",\"ts\":\"2026-03-02T10:20:00Z\",\"lat\":37.80,\"lon\":-121.75}\n"
            .write(to: dir.appendingPathComponent("1.jsonl"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    private func run(_ args: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(args + ["--campaigns", "campaigns", "--quiet"], cwd: dir)
    }

    /// The second batch after `1.jsonl` (both runs with `extra`); returns the line, reason and
    /// text of each line of its rejects file.
    private func secondBatch(_ name: String, _ text: String, _ extra: [String] = [], first: [String] = []) throws -> [[String]] {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["evaluate", "--state", "s-\(name)", "--history", "1.jsonl"] + first).status, 0)
        let r = try run(["evaluate", "--state", "s-\(name)", "--history", name, "--rejects", "r-\(name)"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try String(contentsOf: dir.appendingPathComponent("r-\(name)"), encoding: .utf8).split(separator: "\n")
        return try lines.map { line in
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return ["\(o?["line"] ?? "")", "\(o?["reason"] ?? "")", "\(o?["text"] ?? "")"]
        }
    }

    func testJSONLinesLateLinesAreListed() throws {
        let got = try secondBatch("2.jsonl", """
            {"user":"b","ts":"2026-03-02T10:30:00Z","lat":37.70,"lon":-121.75}
            {"user":"b","ts":"2026-03-02T10:10:00Z","lat":37.70,"lon":-121.75}

            """)
        XCTAssertEqual(got.map { Array($0.prefix(2)) }, [["2", "late"]])
    }

    func testCSVLateRowsAreListedByTheirFirstLine() throws {
        // A blank row before the header, a row with a quoted line break, then the late row.
        let got = try secondBatch("2.csv", "\nuser,ts,lat,lon,note\nb,2026-03-02T10:30:00Z,37.70,-121.75,\"two\nlines\"\nb,2026-03-02T10:10:00Z,37.70,-121.75,x\n")
        XCTAssertEqual(got, [["5", "late", "b,2026-03-02T10:10:00Z,37.70,-121.75,x"]])
    }

    func testAForcedCSVFormatIsReadAsCSV() throws {
        let got = try secondBatch("2.txt", "user;ts;lat;lon\nb;2026-03-02T10:10:00Z;37.70;-121.75\n", ["--history-format", "csv"])
        XCTAssertEqual(got.map { Array($0.prefix(2)) }, [["2", "late"]])
    }

    /// Read again with the batch's --ts-format (epoch milliseconds here); the build before read
    /// it in seconds and listed nothing.
    func testTheTimestampUnitOfTheBatchIsKept() throws {
        // 10:00 and 10:20 of 2026-03-02 in epoch ms are 1772445600000 and 1772446800000.
        try "{\"user\":\"b\",\"ts\":1772445600000,\"lat\":37.70,\"lon\":-121.75}\n{\"user\":\"b\",\"ts\":1772446800000,\"lat\":37.80,\"lon\":-121.75}\n"
            .write(to: dir.appendingPathComponent("1.jsonl"), atomically: true, encoding: .utf8)
        let got = try secondBatch("2.jsonl", "{\"user\":\"b\",\"ts\":1772446200000,\"lat\":37.70,\"lon\":-121.75}\n", ["--ts-format", "epoch_ms"],
                                  first: ["--ts-format", "epoch_ms"])
        XCTAssertEqual(got.map { Array($0.prefix(2)) }, [["1", "late"]])
    }
}
