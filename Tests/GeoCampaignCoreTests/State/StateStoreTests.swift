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

    /// The blocks hold every user's latest record (schema version 3), over rounds that write
    /// random users, new and known, with records that grow and shrink, blocks of a few users
    /// each (split many times): written on the store's own connection (`putRecords`, as a
    /// stream does) or as a run writes them (located on the record reader's connection, written
    /// by a `UserBlockWriter` on the run's, users without a new record copied as they were).
    /// Read back by the ordered read, one at a time, as all ids, totals and digest.
    func testTheBlocksHoldEveryUsersLatestRecord() throws {
        let saved = UserBlockWriter.maxBytes
        defer { UserBlockWriter.maxBytes = saved }
        UserBlockWriter.maxBytes = 120
        let path = dir.appendingPathComponent("state.db").path
        var rng = SplitMix64(seed: 21)
        let pool = UserBlockTests.pool + (0..<200).map { "v\($0 * 13)" }
        var model: [String: (held: Int, record: [UInt8])] = [:]
        var rows = 0
        for round in 0..<24 {
            let store = try StateStore(path: path, create: true)
            try store.begin()
            var reader: StateStore.RecordReader?
            try store.prepareLog(checkpointed: { reader = $0 })
            let chosen = pool.filter { _ in rng.next() % UInt64(1 + round % 5) == 0 }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let updates = chosen.map { id -> (id: String, held: Int, record: [UInt8]) in
                (id, Int(rng.next() % 3), (0..<Int(rng.next() % 50)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            }
            if round % 2 == 0 {
                try store.putRecords(updates)
            } else {
                // As a run: some of the located users keep their record (nil: a user without a new one).
                let locations = try XCTUnwrap(reader).locations(sortedIds: chosen)
                let writer = try store.blockWriter()
                for (u, location) in zip(updates, locations) {
                    let keep = location.found && rng.next() % 4 == 0
                    try writer.set(location, id: u.id, held: u.held, record: keep ? nil : u.record)
                    if !keep { model[u.id] = (u.held, u.record) }
                }
                try writer.finish()
                rows += writer.rowsWritten
            }
            if round % 2 == 0 { for u in updates { model[u.id] = (u.held, u.record) } }
            reader?.end()
            try store.commit()

            let ids = model.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            XCTAssertEqual(try store.userIds(), ids, "round \(round)")
            let asked = pool.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.filter { _ in rng.next() % 3 != 0 }
            XCTAssertEqual(try store.records(sortedIds: asked), asked.map { model[$0]?.record }, "round \(round)")
            let one = try store.userReader()
            for id in asked.prefix(40) { XCTAssertEqual(try one.record(id), model[id]?.record, "round \(round), \(id)") }
            let totals = try store.userTotals()
            XCTAssertEqual(totals.users, model.count)
            XCTAssertEqual(totals.held, model.values.reduce(0) { $0 + $1.held })
            XCTAssertEqual(totals.recordBytes, model.values.reduce(0) { $0 + $1.record.count })
        }
        XCTAssertGreaterThan(rows, 100, "many blocks written")
        let blocks = try SQLiteDatabase(path: path, create: false).prepare("SELECT count(*) FROM user_blocks")
        _ = try blocks.step()
        XCTAssertGreaterThan(blocks.int(0), 30, "the blocks were split")
    }

    /// A state of schema version 1 or 2 (a row per user in `users`, as geocampaign wrote it
    /// before version 3) is converted by the first `begin`: the same records, held counts and
    /// content digest, in blocks; `users` is dropped and the version is the current one. Until
    /// then it is read as it is (`--state-info`).
    func testAStateOfARowPerUserIsConvertedToBlocksWithItsContent() throws {
        for oldVersion in [1, 2] {
            let path = dir.appendingPathComponent("old-\(oldVersion).db").path
            var rng = SplitMix64(seed: UInt64(oldVersion))
            var model: [String: (held: Int, record: [UInt8])] = [:]
            do {
                let db = try SQLiteDatabase(path: path, create: true)
                try db.exec("""
                    PRAGMA application_id = \(StateStore.applicationId); PRAGMA user_version = \(oldVersion);
                    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE campaigns(slot INTEGER PRIMARY KEY, id TEXT NOT NULL, fingerprint TEXT NOT NULL, since_run INTEGER NOT NULL);
                    CREATE TABLE users(id TEXT PRIMARY KEY, held INTEGER NOT NULL, state BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE runs(run INTEGER PRIMARY KEY, at TEXT NOT NULL, batch TEXT NOT NULL, command TEXT NOT NULL, output BLOB, rejects BLOB);
                    INSERT INTO meta VALUES ('runs', '1');
                    """)
                try db.exec("BEGIN")
                let insert = try db.prepare("INSERT INTO users(id, held, state) VALUES (?1, ?2, ?3)")
                for id in UserBlockTests.pool + (0..<3000).map({ "w\($0)" }) where rng.next() % 4 != 0 {
                    let record = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let held = Int(rng.next() % 5)
                    model[id] = (held, record)
                    // Bound with their lengths, as geocampaign bound them (an id may hold a NUL).
                    var utf8 = id
                    try utf8.withUTF8 { i in
                        try record.withUnsafeBytes { try insert.run(borrowing: [.text(UnsafeRawBufferPointer(i)), .int(Int64(held)), .blob($0)]) }
                    }
                }
                try db.exec("COMMIT")
            }
            let before = try StateStore(path: path, create: false)
            XCTAssertEqual(before.version, Int64(oldVersion))
            let digest = try before.contentDigest()
            XCTAssertEqual(try before.userTotals().users, model.count)
            let store = try StateStore(path: path, create: true)
            try store.begin()
            XCTAssertEqual(store.version, StateStore.schemaVersion)
            XCTAssertEqual(try store.contentDigest(), digest, "version \(oldVersion): the same content")
            let ids = model.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            XCTAssertEqual(try store.userIds(), ids)
            XCTAssertEqual(try store.records(sortedIds: ids), ids.map { model[$0]?.record })
            XCTAssertEqual(try store.userTotals().held, model.values.reduce(0) { $0 + $1.held })
            store.rollback()
            let db = try SQLiteDatabase(path: path, create: false)
            XCTAssertEqual(try db.pragma("user_version"), StateStore.schemaVersion, "converted in a commit of its own")
            let users = try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'users'")
            _ = try users.step()
            XCTAssertEqual(users.int(0), 0)
            // Negative control: another content has another digest.
            try store.begin()
            try store.putRecords([(ids[0], 0, [1, 2, 3])])
            XCTAssertNotEqual(try store.contentDigest(), digest)
            store.rollback()
        }
    }

    /// A block whose blob is damaged is an error of the run (a message naming the state), not a
    /// crash nor a state read wrong.
    func testADamagedBlockIsAnError() throws {
        let path = dir.appendingPathComponent("state.db").path
        let store = try StateStore(path: path, create: true)
        try store.begin()
        try store.putRecords([("a", 0, [1, 2]), ("b", 1, [3])])
        try store.commit()
        let db = try SQLiteDatabase(path: path, create: false)
        try db.exec("UPDATE user_blocks SET records = substr(records, 1, length(records) - 1)")
        XCTAssertThrowsError(try store.records(sortedIds: ["a"])) { XCTAssertTrue("\($0)".contains("blocks of user records are damaged"), "\($0)") }
        XCTAssertThrowsError(try store.userReader().record("b")) { XCTAssertTrue("\($0)".contains("damaged"), "\($0)") }
        XCTAssertThrowsError(try store.contentDigest())
        try db.exec("UPDATE user_blocks SET records = x'016100020102', users = 1, held = 0")
        XCTAssertEqual(try store.records(sortedIds: ["a", "b"]), [[1, 2], nil], "the control: a sound block reads")
    }

    /// A run does not write the pages it frees a second time, as zeros (`secure_delete = FAST`;
    /// SQLite as Debian builds it zeroes them by default): the previous run's output, freed when
    /// the next run stores its own, costs that run no page of its log. Negative control: with
    /// `secure_delete` on, the same commit writes those pages, zeroed.
    func testFreedPagesAreNotWrittenAgain() throws {
        func zeroFrames(secureDelete: Bool) throws -> Int {
            let path = dir.appendingPathComponent("state-\(secureDelete).db").path
            let output = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            for run in 1...2 {
                let store = try StateStore(path: path, create: true)
                if secureDelete { try store.db.exec("PRAGMA secure_delete = ON") }
                try store.begin()
                try store.prepareLog()
                try store.addRun(.init(run: run, at: "", batch: "v2:\(run)", command: "evaluate", output: output, rejects: []))
                try store.commit()
            }
            // The frames of the log's latest run (those after its header with its salts).
            let wal = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
            let salts = Array(wal[16..<24])
            var zeros = 0, at = 32
            while at + 24 + 4096 <= wal.count, Array(wal[(at + 8)..<(at + 16)]) == salts {
                if wal[(at + 24)..<(at + 24 + 4096)].allSatisfy({ $0 == 0 }) { zeros += 1 }
                at += 24 + 4096
            }
            return zeros
        }
        XCTAssertEqual(try zeroFrames(secureDelete: false), 0)
        XCTAssertGreaterThan(try zeroFrames(secureDelete: true), 40, "the control: the first run's output, zeroed")
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
