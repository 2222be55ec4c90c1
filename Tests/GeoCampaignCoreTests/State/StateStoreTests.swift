import Foundation
import XCTest
@testable import GeoCampaignCore

/// The ordered read of many user records equals one query per user, whatever the mix of held
/// and unknown ids, dense runs (stepping) and far gaps (seeking anew).
final class StateStoreTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func testRecordsOfSortedIdsEqualOneQueryPerUser() throws {
        let store = try StateStore(path: dir.appendingPathComponent("state.db").path, create: true)
        try store.begin()
        let writer = try store.userWriter()
        // Held: every third of u000..u299, and some ids that are prefixes or extensions of others.
        var held: [String] = stride(from: 0, to: 300, by: 3).map { "u" + String(format: "%03d", $0) }
        held += ["u", "u00", "u0000", "é", "z"]
        for (n, id) in held.enumerated() { try writer.put(id, held: n, record: Array(id.utf8) + [UInt8(n % 256)]) }
        let reader = try store.userReader()
        let all = (0..<320).map { "u" + String(format: "%03d", $0) } + ["", "u", "u0", "u00", "u0000", "u00000", "y", "z", "é", "éé"]
        var rng = SystemRandomNumberGenerator()
        let cases: [[String]] = [
            [], all, held, ["u000"], ["zz"], [""], Array(all.prefix(40)), Array(all.suffix(12)),
            // Far apart: each next id beyond the patience of the scan.
            stride(from: 0, to: 320, by: 40).map { "u" + String(format: "%03d", $0) },
        ] + (0..<20).map { _ in all.filter { _ in Bool.random(using: &rng) } }
        for ids in cases {
            let sorted = Array(Set(ids)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let expected = try sorted.map { try reader.record($0) }
            XCTAssertEqual(try store.records(sortedIds: sorted), expected, "\(sorted.prefix(8))...")
        }
        store.rollback()
    }

    /// `prepareLog` begins the write-ahead log again (the log's header counts its restarts: its
    /// checkpoint sequence number, bytes 12-15, big-endian) before the run writes anything,
    /// keeps the write lock for the run, and changes nothing the state holds; the run's commit
    /// then appends to that log instead of beginning it again.
    func testPrepareLogBeginsTheLogAgainBeforeTheRunWrites() throws {
        let path = dir.appendingPathComponent("state.db").path
        func restarts() throws -> UInt32 {
            let b = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            return b[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
        }
        do {
            let store = try StateStore(path: path, create: true)
            try store.begin()
            try store.userWriter().put("u1", held: 1, record: [1, 2, 3])
            try store.setMeta("runs", "1")
            try store.commit()
        }
        let store = try StateStore(path: path, create: true)
        try store.begin()
        let digest = try store.contentDigest()
        let before = try restarts()
        try store.prepareLog()
        XCTAssertEqual(try restarts(), before + 1, "the log is begun again by prepareLog")
        XCTAssertEqual(try store.contentDigest(), digest)
        // The run still holds the write lock.
        let other = try SQLiteDatabase(path: path, create: false)
        XCTAssertThrowsError(try other.exec("BEGIN IMMEDIATE"))
        try store.userWriter().put("u2", held: 0, record: [4])
        try store.commit()
        XCTAssertEqual(try restarts(), before + 1, "the run's commit appends to the log")
        XCTAssertEqual(try store.userReader().record("u2"), [4])
        XCTAssertEqual(try store.userReader().record("u1"), [1, 2, 3])
        XCTAssertEqual(store.version, StateStore.schemaVersion)
    }

    /// The records are read beside the run on the checkpoint's connection (`RecordReader`,
    /// handed over by `prepareLog`): it reads the state as the run began, whatever the run has
    /// written since, and its read transaction, begun after the log was copied, does not keep
    /// the log from being begun again. A reader whose transaction began before the copy does
    /// (the negative control: the log then grows by appending).
    func testTheRecordReaderReadsTheRunsStartAndLetsTheLogBeginAgain() throws {
        let path = dir.appendingPathComponent("state.db").path
        func restarts() throws -> UInt32 {
            let b = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            return b[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func run(_ n: UInt8, readerFirst: Bool = false) throws -> (records: [[UInt8]?], restarted: Bool) {
            let store = try StateStore(path: path, create: true)
            try store.begin()
            // A reader that began before the log was copied (only in the negative control).
            let early = readerFirst ? try SQLiteDatabase(path: path, create: false) : nil
            try early?.exec("BEGIN")
            _ = try early?.pragma("user_version")
            let before = try restarts()
            var reader: StateStore.RecordReader?
            var first: [[UInt8]?] = []
            try store.prepareLog(checkpointed: { r in
                reader = r
                // Its read transaction begins before the log is begun again.
                first = (try? r?.records(sortedIds: ["u1"])) ?? []
            })
            XCTAssertEqual(first, [[n - 1]])
            let writer = try store.userWriter()
            try writer.put("u1", held: 0, record: [n])
            try writer.put("u2", held: 0, record: [n])
            let records = try XCTUnwrap(reader).records(sortedIds: ["u1", "u2", "u3"])
            XCTAssertEqual(try XCTUnwrap(reader).userIds(), n == 2 ? ["u1"] : ["u1", "u2"])
            reader?.end()
            try store.commit()
            try early?.exec("COMMIT")
            return (records, try restarts() != before)
        }
        do {
            let store = try StateStore(path: path, create: true)
            try store.begin()
            try store.userWriter().put("u1", held: 0, record: [1])
            try store.commit()
        }
        let second = try run(2)
        XCTAssertEqual(second.records, [[1], nil, nil], "the state as the run began")
        XCTAssertTrue(second.restarted, "the log is begun again with a reader beside the run")
        let third = try run(3)
        XCTAssertEqual(third.records, [[2], [2], nil])
        XCTAssertTrue(third.restarted)
        let fourth = try run(4, readerFirst: true)
        XCTAssertEqual(fourth.records, [[3], [3], nil])
        XCTAssertFalse(fourth.restarted, "a reader of the log from before its copy keeps it from being begun again")
    }

    /// On a database that is not in WAL mode (no log to copy), `prepareLog` still hands over a
    /// reader of the records, whose read transaction ends before the run's commit.
    func testARecordReaderIsHandedOverWithoutALog() throws {
        let path = dir.appendingPathComponent("state.db").path
        do {
            let store = try StateStore(path: path, create: true)
            try store.begin()
            try store.userWriter().put("u1", held: 0, record: [7])
            try store.commit()
        }
        do {
            let db = try SQLiteDatabase(path: path, create: false)
            try db.exec("PRAGMA journal_mode = DELETE")
        }
        let store = try StateStore(path: path, create: false)
        try store.begin()
        var reader: StateStore.RecordReader?
        try store.prepareLog(checkpointed: { reader = $0 })
        XCTAssertEqual(try XCTUnwrap(reader).records(sortedIds: ["u1", "u2"]), [[7], nil])
        try store.userWriter().put("u2", held: 0, record: [8])
        reader?.end()
        try store.commit()
        XCTAssertEqual(try store.records(sortedIds: ["u1", "u2"]), [[7], [8]])
    }
}
