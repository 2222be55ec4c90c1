import Foundation
import XCTest
@testable import GeoCampaignCore

/// Hostile test files in-process (issue 10's standard for the code of issue 12): a stay or trip
/// whose fixes leave the instants a history may hold, stays that together ask for gigabytes, and
/// `file:` items that are not regular files, hold no fix or have rejected lines are errors at
/// the item's line and column, never a hang, a blow-up or a case that passes for the wrong reason.
final class CampaignTestRunnerHostileInputTests: XCTestCase {
    private let campaigns = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data/CampaignTests/campaigns").path
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// Runs a test file made of `timezone` (optional), one case with `history` items and a visit
    /// expectation that none of them meets (so a case that runs fails, and one not run is broken).
    private func run(_ history: [String], timezone: String? = nil) throws -> CampaignTestFileResult {
        var text = "campaigns: [\(campaigns)]\n"
        if let timezone { text += "timezone: \(timezone)\n" }
        text += "cases:\n  - name: hostile\n    history:\n"
        for h in history { text += "      - \(h)\n" }
        text += "    expect:\n      - absent: { user: ada, region: fountain }\n"
        let path = dir.appendingPathComponent("t.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return CampaignTestRunner().run(path: path)
    }

    private func errors(_ r: CampaignTestFileResult) -> [String] {
        r.diagnostics.filter { $0.severity == .error }.map { "\($0.line):\($0.column): \($0.message)" }
    }

    func testStaysAndTripsOutsideTheInstantRangeAreErrors() throws {
        // 23:50 PST on the last day is 07:50Z in year 10000 (failed before: the case ran on
        // fixes in year 10000 and printed them as 10000-01-01).
        let late = try run(["stay: { user: ada, at: fountain, from: 9999-12-31 23:50, for: 48m }"], timezone: "America/Los_Angeles")
        XCTAssertTrue(late.isBroken)
        XCTAssertEqual(errors(late).count, 1)
        XCTAssertTrue((errors(late).first ?? "").hasPrefix("6:48: the fixes would fall outside 0001-01-01T00:00:00Z"), (errors(late).first ?? ""))
        // Midnight of 0001-01-01 in Tokyo is in year 0 (failed before: it ran).
        let early = try run(["stay: { user: ada, at: fountain, from: 0001-01-01 00:00, for: 10m }"], timezone: "Asia/Tokyo")
        XCTAssertTrue(early.isBroken)
        let trip = try run(["trip: { user: ada, from_region: fountain, to_region: twin-parks, departs: 9999-12-31T23:59:00Z, takes: 5m }"])
        XCTAssertTrue(trip.isBroken)
        XCTAssertTrue((errors(trip).first ?? "").contains("outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"), (errors(trip).first ?? ""))
        // The last minute that fits is fine.
        let edge = try run(["stay: { user: ada, at: fountain, from: 9999-12-31T23:58:00Z, for: 1m }"])
        XCTAssertFalse(edge.isBroken, errors(edge).joined(separator: "\n"))
    }

    func testTheStaysOfAFileMakeAtMostTwoMillionFixesTogether() throws {
        // Three stays of 999,999 fixes each (failed before: 30 such lines took minutes and 3 GB).
        let stay = "stay: { user: ada, at: fountain, from: 2012-12-14 10:00, for: 11d13h46m39s, every: 1s }"
        let r = try run([stay, stay, stay])
        XCTAssertTrue(r.isBroken)
        XCTAssertEqual(errors(r), ["7:32: the stays and trips of this file would make more than 2000000 fixes together: shorten them, write a larger 'every', or split the file"])
        XCTAssertTrue(r.cases.isEmpty)
    }

    func testHistoryFilesThatAreNotRegularFilesAreRefused() throws {
        let fifo = dir.appendingPathComponent("pipe.jsonl").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let folder = dir.appendingPathComponent("folder.jsonl").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Failed before: the FIFO blocked forever, /dev/zero was read on and on.
        for (path, what) in [(fifo, "is not a regular file"), ("/dev/zero", "is not a regular file"), ("/dev/null", "is not a regular file"),
                             (folder, "is a folder"), (dir.appendingPathComponent("none.jsonl").path, "cannot be read: No such file or directory")] {
            let r = try run(["file: \(path)"])
            XCTAssertTrue(r.isBroken, path)
            XCTAssertEqual(errors(r).count, 1, path)
            XCTAssertTrue(errors(r).first?.hasPrefix("5:15: the history file '\(path)' \(what)") ?? false, errors(r).joined())
        }
    }

    /// A test file over 10 MiB took 51 s and 534 MB before it was refused; now at once, as a
    /// campaign file; a FIFO as the test file itself is named as one.
    func testTestFilesOverTenMebibytesOrNotRegularAreRefusedAtOnce() throws {
        let big = dir.appendingPathComponent("big.yaml").path
        try Data(("a: " + String(repeating: "x", count: 10 * 1024 * 1024) + "\n").utf8).write(to: URL(fileURLWithPath: big))
        let r = CampaignTestRunner().run(path: big)
        XCTAssertTrue(r.isBroken)
        XCTAssertEqual(errors(r), ["1:1: the file is 10.0 MiB, more than the 10 MiB a test file may have, as a campaign file: split it, or keep long histories in a `file:` item"])
        let fifo = dir.appendingPathComponent("t-pipe.yaml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let p = CampaignTestRunner().run(path: fifo)
        XCTAssertTrue(p.isBroken)
        XCTAssertEqual(errors(p), ["0:0: not a regular file (a named pipe, device or socket): name a test file or folder"])
    }

    func testHistoryFilesWithoutFixesOrWithRejectedLinesAreErrors() throws {
        let gpx = dir.appendingPathComponent("empty.gpx").path
        try "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"x\"></gpx>\n".write(toFile: gpx, atomically: true, encoding: .utf8)
        let empty = dir.appendingPathComponent("empty.jsonl").path
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let bad = dir.appendingPathComponent("bad.jsonl").path
        try "{\"user\":\"ada\",\"ts\":\"2012-12-14T09:00:00Z\",\"lat\":47.37,\"lon\":8.54}\ngarbage\n".write(toFile: bad, atomically: true, encoding: .utf8)
        // Failed before: each ran, and the `absent` expectation passed on an empty history.
        for (path, what) in [(gpx, "holds no fix"), (empty, "holds no fix"), (bad, "has 1 rejected line, the first at line 2 (invalid_json)")] {
            let r = try run(["file: \(path)"])
            XCTAssertTrue(r.isBroken, path)
            XCTAssertTrue(errors(r).first?.hasPrefix("5:15: the history file '\(path)' \(what)") ?? false, errors(r).joined())
        }
        // The test file itself named as its history: every line rejected.
        let own = try run(["file: t.yaml"])
        XCTAssertTrue(errors(own).first?.contains("rejected lines, the first at line 1 (invalid_json)") ?? false, errors(own).joined())
    }

    func testTheInputsOfARunAreRecorded() throws {
        let jsonl = dir.appendingPathComponent("h.jsonl").path
        try "{\"user\":\"bo\",\"ts\":\"2012-12-14T09:00:00Z\",\"lat\":47.37,\"lon\":8.54}\n".write(toFile: jsonl, atomically: true, encoding: .utf8)
        let r = try run(["file: h.jsonl"])
        XCTAssertFalse(r.isBroken, errors(r).joined(separator: "\n"))
        XCTAssertEqual(r.inputs, [dir.appendingPathComponent("t.yaml").path, campaigns + "/shapes.yaml", jsonl])
    }
}
