import Foundation
import XCTest

/// `--state`, `--final`, `--state-info` end to end (state.md 1), on the contract's state-1 batches.
final class StateCommandTests: XCTestCase {
    /// A copy of the contract's example (../shared/spec/examples/state-1), so the suite runs without shared/.
    static let example = BinaryRunner.root.appendingPathComponent("Tests/Data/state-1")
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.example.path), "the contract's state-1 example")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    static func batch(_ k: Int) -> String { example.appendingPathComponent("batches/batch-\(k).jsonl").path }
    static var campaigns: String { example.appendingPathComponent("campaigns").path }

    private func evaluate(_ k: Int, state: String = "s", extra: [String] = []) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["evaluate", "--state", state, "--include-suppressed", "--campaigns", Self.campaigns,
                              "--history", Self.batch(k), "--quiet"] + extra, cwd: dir)
    }

    private func info(_ state: String = "s") throws -> [String: String] {
        let r = try BinaryRunner.run(["evaluate", "--state", state, "--state-info"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { out[parts[0]] = parts[1] }
        }
        return out
    }

    func testThreeRunsPrintTheExpectedDecisionsAndTheFinalStateRefusesMore() throws {
        for k in 1...3 {
            let r = try evaluate(k, extra: k == 3 ? ["--final"] : [])
            XCTAssertEqual(r.status, 0, r.stderr)
            let expected = try String(contentsOf: Self.example.appendingPathComponent("expected/run-\(k)/decisions.jsonl"), encoding: .utf8)
            XCTAssertEqual(r.stdout.split(separator: "\n").count, expected.split(separator: "\n").count, "run \(k)")
        }
        let i = try info()
        XCTAssertEqual(i["runs"], "3")
        XCTAssertTrue(i["final"]?.hasPrefix("yes, since run 3") ?? false, "\(i)")
        XCTAssertEqual(i["users"], "30")
        XCTAssertEqual(i["campaigns"], "5")
        let more = try evaluate(2)
        XCTAssertEqual(more.status, 65)
        XCTAssertTrue(more.stderr.contains("error: s: the state was finalized by run 3 at "), more.stderr)
    }

    func testARepeatedBatchPrintsTheSameOutputAndChangesNothing() throws {
        XCTAssertEqual(try evaluate(1, extra: ["--output", "o1", "--rejects", "r1"]).status, 0)
        let first = try evaluate(2, extra: ["--output", "o2", "--rejects", "r2"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try info()
        let again = try evaluate(2, extra: ["--output", "o2b", "--rejects", "r2b"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("note: this batch was already applied by run 2 of s"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("o2")), try Data(contentsOf: dir.appendingPathComponent("o2b")))
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("r2")), try Data(contentsOf: dir.appendingPathComponent("r2b")))
        XCTAssertFalse(try String(contentsOf: dir.appendingPathComponent("o2"), encoding: .utf8).isEmpty)
        let after = try info()
        XCTAssertEqual(before["content digest"], after["content digest"])
        XCTAssertEqual(after["runs"], "2")
        // Negative control: a new batch does change the digest.
        XCTAssertEqual(try evaluate(3).status, 0)
        XCTAssertNotEqual(try info()["content digest"], after["content digest"])
    }

    func testARepeatGivenFinalSaysTheStateStaysOpenAndAnEmptyFinalBatchClosesIt() throws {
        XCTAssertEqual(try evaluate(1).status, 0)
        let plain = try evaluate(1)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        // Negative control: a repeat without --final gets no such note.
        XCTAssertFalse(plain.stderr.contains("--final was not applied"), plain.stderr)
        let again = try evaluate(1, extra: ["--final"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("note: --final was not applied either: the state stays open"), again.stderr)
        XCTAssertEqual(try info()["final"], "no")
        let close = try BinaryRunner.run(["evaluate", "--state", "s", "--include-suppressed", "--campaigns", Self.campaigns,
                                          "--history", "/dev/null", "--final", "--quiet"], cwd: dir)
        XCTAssertEqual(close.status, 0, close.stderr)
        let closed = try info()
        XCTAssertTrue(closed["final"]?.hasPrefix("yes, since run 2") ?? false, "\(closed)")
    }

    func testLateFixesAreRejectedWithReasonLate() throws {
        XCTAssertEqual(try evaluate(1).status, 0)
        let r = try evaluate(2, extra: ["--rejects", "r2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rejects = try String(contentsOf: dir.appendingPathComponent("r2"), encoding: .utf8)
        XCTAssertTrue(rejects.contains(#""reason": "late""#), rejects)
        let strict = try evaluate(3, extra: ["--strict"])
        XCTAssertEqual(strict.status, 65)
        XCTAssertTrue(strict.stderr.contains("rejected line (late)") || strict.stderr.contains("rejected line ("), strict.stderr)
    }

    func testACampaignChangeIsWarnedAndAStateServesOneCommand() throws {
        let copy = dir.appendingPathComponent("campaigns")
        try FileManager.default.copyItem(atPath: Self.campaigns, toPath: copy.path)
        try FileManager.default.copyItem(atPath: Self.example.appendingPathComponent("regions").path, toPath: dir.appendingPathComponent("regions").path)
        let args = ["evaluate", "--state", "s", "--campaigns", "campaigns", "--quiet"]
        XCTAssertEqual(try BinaryRunner.run(args + ["--history", Self.batch(1)], cwd: dir).status, 0)
        // Changed in bytes, not in meaning (the state's fingerprint by the bytes does not apply).
        let file = copy.appendingPathComponent("mall-events.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(("# reformatted\n" + text + "\n\n").utf8).write(to: file)
        let same = try BinaryRunner.run(args + ["--history", Self.batch(2)], cwd: dir)
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertFalse(same.stderr.contains("warning: campaign"), "an unchanged campaign is not warned about: \(same.stderr)")
        try Data(text.replacingOccurrences(of: "priority: ", with: "priority: 1").utf8).write(to: file)
        // An imported file's geometry moved: its campaign changed though its own file did not.
        let geo = dir.appendingPathComponent("regions/car-dealers.geojson")
        let geoText = try String(contentsOf: geo, encoding: .utf8)
        XCTAssertTrue(geoText.contains("-121.794094"))
        try Data(geoText.replacingOccurrences(of: "-121.794094", with: "-121.794095").utf8).write(to: geo)
        let changed = try BinaryRunner.run(args + ["--history", Self.batch(3)], cwd: dir)
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("warning: campaign mall-events is changed since the state's last run"), changed.stderr)
        XCTAssertTrue(changed.stderr.contains("warning: campaign car-shoppers is changed since the state's last run"), changed.stderr)
        XCTAssertFalse(changed.stderr.contains("warning: campaign fitness-fuel"), changed.stderr)
        let events = try BinaryRunner.run(["events", "--state", "s", "--campaigns", "campaigns", "--history", Self.batch(1)], cwd: dir)
        XCTAssertEqual(events.status, 65)
        XCTAssertTrue(events.stderr.contains("the state holds 'evaluate' runs; 'events' cannot continue it"), events.stderr)
    }

    func testUsageAndBadStates() throws {
        let cases: [([String], Int32, String)] = [
            (["evaluate", "--final", "--history", "x"], 64, "error: --final needs --state PATH"),
            (["evaluate", "--state", "s", "--history", "-"], 64, "error: --state needs --history FILE"),
            (["events", "--state", "s", "--history", "x", "--until", "2026-03-10T00:00:00Z"], 64, "error: --until cannot be combined with --state"),
            (["evaluate", "--state", "nothere", "--state-info"], 66, "error: nothere: no such state"),
        ]
        for (args, status, message) in cases {
            let r = try BinaryRunner.run(args, cwd: dir)
            XCTAssertEqual(r.status, status, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        try Data("not a database at all, just text that is long enough to look like a header".utf8).write(to: dir.appendingPathComponent("junk"))
        let junk = try evaluate(1, state: "junk")
        XCTAssertEqual(junk.status, 65, junk.stderr)
        XCTAssertTrue(junk.stderr.contains("junk: not a geocampaign state"), junk.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("junk"), encoding: .utf8).prefix(7), "not a d", "the file is untouched")
    }

    /// A state of schema version 1 (an older geocampaign's, whose kept decisions have no rule id)
    /// is continued: runs 2 and 3 print what they print on a state this build made, but for the
    /// reasons' naming of run 1's decisions; the first run converts it to the current version.
    func testAStateOfSchemaVersion1IsContinued() throws {
        let old = BinaryRunner.root.appendingPathComponent("Tests/Data/state-v1/after-batch-1.db")
        try FileManager.default.copyItem(at: old, to: dir.appendingPathComponent("old"))
        XCTAssertEqual(try info("old")["schema version"], "1")
        XCTAssertEqual(try evaluate(1, state: "new").status, 0)
        func withoutReasons(_ text: String) -> [String] {
            text.split(separator: "\n").map { String($0).replacing(#/,"reason":.*\}$/#, with: "}") }
        }
        var named = 0
        for k in 2...3 {
            let extra = k == 3 ? ["--final"] : []
            let a = try evaluate(k, state: "old", extra: extra), b = try evaluate(k, state: "new", extra: extra)
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            XCTAssertEqual(withoutReasons(a.stdout), withoutReasons(b.stdout), "run \(k)")
            XCTAssertFalse(a.stdout.isEmpty)
            named += b.stdout.split(separator: "\n").filter { $0.contains(#""by":[{"#) }.count
            if k == 2 { XCTAssertEqual(try info("old")["schema version"], "3") }
        }
        XCTAssertGreaterThan(named, 0, "the runs have reasons that the comparison leaves aside")
    }

    /// A state of schema version 2 (a row per user, Tests/Data/state-v2: main's build at f5b1404
    /// after batch 1) continued by this build, which converts it to blocks of users (version 3),
    /// prints byte for byte what the build that wrote it printed for batches 2 and 3, and holds
    /// the same content (the same digests). Negative control: a new state continued with batch 2
    /// prints something else (the old state's users and deliveries matter).
    func testAStateOfSchemaVersion2IsContinuedAsItsBuildContinuedIt() throws {
        let fixture = BinaryRunner.root.appendingPathComponent("Tests/Data/state-v2")
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("after-batch-1.db"), to: dir.appendingPathComponent("old"))
        XCTAssertEqual(try info("old")["schema version"], "2")
        let digests = ["d9b1e20daa82858c", "22c175e3f5d28df8"]
        for k in 2...3 {
            let r = try evaluate(k, state: "old", extra: k == 3 ? ["--final"] : [])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, try String(contentsOf: fixture.appendingPathComponent("run-\(k).jsonl"), encoding: .utf8), "run \(k)")
            let i = try info("old")
            XCTAssertEqual(i["schema version"], "3")
            XCTAssertEqual(i["content digest"], digests[k - 2], "run \(k)")
        }
        let fresh = try evaluate(2, state: "new")
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertNotEqual(fresh.stdout, try String(contentsOf: fixture.appendingPathComponent("run-2.jsonl"), encoding: .utf8))
    }

    /// Each run copies the previous run's write-ahead log into the database at its start and
    /// writes its own from the log's beginning, so the log holds one run's pages and does not
    /// grow with the runs. The log's header counts its restarts (its checkpoint sequence
    /// number, bytes 12-15, big-endian): one per run. (A run that appended instead, because
    /// its transaction began before the checkpoint, left the count as it was.)
    func testEachRunWritesTheWriteAheadLogFromItsBeginning() throws {
        func restarts() throws -> UInt32 {
            let b = try Data(contentsOf: dir.appendingPathComponent("s-wal"))
            return b[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
        }
        XCTAssertEqual(try evaluate(1).status, 0)
        let first = try restarts()
        for k in 2...3 {
            XCTAssertEqual(try evaluate(k).status, 0)
            XCTAssertEqual(try restarts(), first + UInt32(k - 1), "run \(k)")
        }
        XCTAssertEqual(try info()["runs"], "3")
    }

    /// A state whose latest batch hash is of version 1 (Tests/Data/state-hash1, an older build's):
    /// the same batch again is recognised as a repeat (its output written again, the state
    /// unchanged), and the next batch continues the state as on a state of this build and is
    /// stored with a hash of version 2, by which it is recognised in turn.
    func testABatchAppliedByAnOlderBuildIsRecognised() throws {
        let fixture = BinaryRunner.root.appendingPathComponent("Tests/Data/state-hash1")
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("after-batch-1.db"), to: dir.appendingPathComponent("old"))
        let before = try info("old")
        XCTAssertTrue(before["latest run"]?.hasSuffix(", batch 45635c5589156ddba222a678332a547a") ?? false, "\(before)")
        let again = try evaluate(1, state: "old")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("note: this batch was already applied by run 1 of old"), again.stderr)
        XCTAssertEqual(again.stdout, try String(contentsOf: fixture.appendingPathComponent("run-1.jsonl"), encoding: .utf8))
        XCTAssertFalse(again.stdout.isEmpty)
        let after = try info("old")
        XCTAssertEqual(after["content digest"], before["content digest"])
        XCTAssertEqual(after["runs"], "1")

        XCTAssertEqual(try evaluate(1, state: "new").status, 0)
        let a = try evaluate(2, state: "old"), b = try evaluate(2, state: "new")
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout, "run 2 on the old state")
        XCTAssertFalse(a.stderr.contains("already applied"), a.stderr)
        XCTAssertTrue(try info("old")["latest run"]?.contains(", batch v2:") ?? false)
        let repeated = try evaluate(2, state: "old")
        XCTAssertTrue(repeated.stderr.contains("note: this batch was already applied by run 2 of old"), repeated.stderr)
        XCTAssertEqual(repeated.stdout, a.stdout)
    }

    /// A state written by a newer geocampaign (a higher schema version) is refused, naming both versions.
    func testANewerSchemaIsRefusedNamingBothVersions() throws {
        XCTAssertEqual(try evaluate(1).status, 0)
        // PRAGMA user_version lives at byte 60 of the database header (big-endian). The state is
        // in WAL mode: its write-ahead log `s-wal` holds a newer copy of that page (the run's),
        // so the log is removed (and the run's changes with it, which do not matter here) to
        // make the patched header the one that is read. The database file alone is a state of
        // version 3, as the unpatched copy `c` shows.
        let fm = FileManager.default
        for name in ["s-wal", "s-shm"] {
            XCTAssertTrue(fm.fileExists(atPath: dir.appendingPathComponent(name).path), name)
            try fm.removeItem(at: dir.appendingPathComponent(name))
        }
        let url = dir.appendingPathComponent("s")
        try fm.copyItem(at: url, to: dir.appendingPathComponent("c"))
        var bytes = try Data(contentsOf: url)
        XCTAssertEqual(Array(bytes[60..<64]), [0, 0, 0, 3])
        bytes[60] = 0; bytes[61] = 0; bytes[62] = 0; bytes[63] = 9
        try bytes.write(to: url)
        let r = try evaluate(2)
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.contains("the state has schema version 9, newer than version 3 that this geocampaign reads"), r.stderr)
        let control = try evaluate(2, state: "c")
        XCTAssertEqual(control.status, 0, control.stderr)
    }
}
