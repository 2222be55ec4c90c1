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
}
