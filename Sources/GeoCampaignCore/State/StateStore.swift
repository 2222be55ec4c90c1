import Foundation

/// The state database of stateful runs (state.md 1): an SQLite file holding, per user, the
/// record of `UserState` (in blocks of users, `UserBlock`), the campaigns' fingerprints, and the
/// latest run's batch and output.
///
/// Tables (inspect them with `sqlite3 PATH`): `meta(key, value)`; `campaigns(slot, id,
/// fingerprint, since_run)`; `user_blocks(first, users, held, records)`; `runs(run, at, batch,
/// output, rejects, command)`, of which only the latest keeps its output. The schema version is
/// `PRAGMA user_version`; a state of a newer version is refused, naming both versions, and one
/// of an older version is converted (`migrateToBlocks`).
///
/// A run or stream (a store opened with `create`) holds the state for its lifetime, by an
/// exclusive lock on the file `PATH-lock` beside it (`StateLock`), and the database's write
/// lock from `begin` to `commit`: a second run on the same state waits for nothing and fails
/// with a message instead. A reader (`--state-info`) takes neither.
public final class StateStore {
    /// The schema version this build writes. Version 2 kept each kept decision's rule id in the
    /// user records (`UserState.recordVersion`); version 3 keeps the records in blocks of users
    /// (`UserBlock`) instead of a row per user. A state of version 1 or 2 is read and continued:
    /// the first run or stream that opens it converts it (`migrateToBlocks`).
    public static let schemaVersion: Int64 = 3
    /// The oldest schema version this build reads.
    static let oldestSchemaVersion: Int64 = 1
    /// `PRAGMA application_id`: "geoc".
    static let applicationId: Int64 = 0x6765_6F63

    /// The path given.
    public let path: String
    let db: SQLiteDatabase
    /// A run's or stream's hold on the state for its lifetime (`StateLock`); nil for a reader.
    private let lock: StateLock?
    /// The schema version of the file as opened.
    public internal(set) var version: Int64

    /// One campaign the state knows.
    public struct CampaignEntry: Sendable, Equatable {
        /// The state's number for this campaign and fingerprint.
        public var slot: Int
        /// The campaign id.
        public var id: String
        /// Its fingerprint (`CampaignFingerprint`).
        public var fingerprint: String
        /// The run from which it has had this fingerprint.
        public var sinceRun: Int
    }

    /// The latest run.
    public struct RunEntry: Sendable {
        /// Run number, from 1.
        public var run: Int
        /// When it committed (RFC 3339).
        public var at: String
        /// The batch's content hash.
        public var batch: String
        /// `evaluate` or `events`.
        public var command: String
        /// What it printed and rejected.
        public var output: [UInt8]
        public var rejects: [UInt8]
    }

    /// Opens the state at `path`, creating it when it does not exist and `create` is true.
    /// - Parameter busyTimeoutMs: how long a statement waits for another connection's lock
    ///   before failing (0: at once, so that a second run fails instead of waiting).
    /// - Throws: `RunError` naming the path: not a state, a newer schema, cannot be opened.
    public init(path: String, create: Bool, busyTimeoutMs: Int = 0) throws {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && !create { throw RunError.noInput("\(path): no such state") }
        db = try SQLiteDatabase(path: path, create: create)
        // A writer holds the state from here until it is closed, between its commits too (a
        // stream's); SQLite's write lock covers only a transaction.
        lock = create ? try StateLock(statePath: path) : nil
        // A run's changes stay in memory until its commit (a smaller page cache spills them to
        // the file early). A run (`create`) puts the state in WAL mode: a commit appends the
        // pages it changed to `PATH-wal` and syncs that file once (synchronous = FULL, so a
        // commit that returned survives a power loss); they are copied into the database by
        // the next run's checkpoint, beside its reading (`checkpoint(path:)`), not by this
        // run's commit or close (wal_autocheckpoint = 0, and no checkpoint on close).
        // A reader (--state-info) leaves the mode as it finds it.
        // Freed pages are not overwritten with zeros (`secure_delete = FAST`: deleted content is
        // zeroed only within pages that are written anyway): with SQLite's default here (on), a
        // run wrote every page it freed (the previous run's output, the old blocks' overflow
        // pages) to the log a second time, as zeros: 110 of run 30's 838 pages.
        try db.exec("PRAGMA busy_timeout = \(max(0, busyTimeoutMs)); PRAGMA cache_size = -262144; PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = FAST"
                    + (create ? "; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL" : ""))
        version = try db.pragma("user_version")
        let app = try db.pragma("application_id")
        let tables = try db.prepare("SELECT count(*) FROM sqlite_master")
        _ = try tables.step()
        let empty = tables.int(0) == 0
        // An empty file opened without `create` is a state another run is creating: not
        // written here (a reader such as --state-info would race that run's schema).
        if empty && version == 0 && !create { throw RunError.noInput("\(path): no such state (an empty file)") }
        if empty && version == 0 {
            try db.exec("""
                BEGIN IMMEDIATE;
                PRAGMA application_id = \(Self.applicationId);
                PRAGMA user_version = \(Self.schemaVersion);
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE campaigns(slot INTEGER PRIMARY KEY, id TEXT NOT NULL, fingerprint TEXT NOT NULL, since_run INTEGER NOT NULL);
                \(Self.blocksSchema)
                CREATE TABLE runs(run INTEGER PRIMARY KEY, at TEXT NOT NULL, batch TEXT NOT NULL, command TEXT NOT NULL, output BLOB, rejects BLOB);
                \(Self.sourcesTable);
                COMMIT;
                """)
            version = Self.schemaVersion
            return
        }
        guard app == Self.applicationId else {
            throw RunError.data("\(path): not a geocampaign state (an SQLite database of another program)")
        }
        if version > Self.schemaVersion {
            throw RunError.data("\(path): the state has schema version \(version), newer than version \(Self.schemaVersion) that this geocampaign reads; use the newer geocampaign that wrote it")
        }
        if version < Self.oldestSchemaVersion {
            throw RunError.data("\(path): the state has schema version \(version), which this geocampaign (version \(Self.schemaVersion)) cannot read")
        }
    }

    /// How long statements wait for another connection's lock from now on (see `init`).
    public func setBusyTimeout(ms: Int) throws { try db.exec("PRAGMA busy_timeout = \(max(0, ms))") }

    /// The page cache's bound from now on, in KiB. A batch run keeps its changes in a 256 MiB
    /// cache until its commit (see `init`); a stream, which runs for days and commits every
    /// second, bounds it lower so that its memory follows its active users, not the state's size.
    public func setCacheSize(kib: Int) throws { try db.exec("PRAGMA cache_size = -\(max(64, kib))") }

    /// From now on, a commit that leaves more than `pages` pages in the write-ahead log copies
    /// them into the database (SQLite's automatic checkpoint). A stream, which has no next run
    /// to checkpoint at its start, keeps its log bounded this way; batch runs leave it off.
    public func setAutoCheckpoint(pages: Int) throws { try db.exec("PRAGMA wal_autocheckpoint = \(max(0, pages))") }

    /// Copies the write-ahead log of the state at `path` into its database, on a connection of
    /// its own, without waiting for any lock (a passive checkpoint; it syncs the database). A
    /// run calls it at its start on a background thread (`prepareLog()`), while it holds the
    /// write lock and reads its batch, so that its commit writes the log from its beginning
    /// instead of appending to it.
    /// - Returns: whether the log had frames and all of them are now in the database, and the
    ///   connection (nil when it could not be opened; kept when the checkpoint could not run,
    ///   as in a database that is not in WAL mode).
    static func checkpoint(path: String) -> (complete: Bool, db: SQLiteDatabase?) {
        // A connection finds the database in WAL mode (and the log) with its first read.
        guard let db = try? SQLiteDatabase(path: path, create: false), (try? db.pragma("schema_version")) != nil else { return (false, nil) }
        guard let r = db.checkpointPassive() else { return (false, db) }
        return (r.frames > 0 && r.done == r.frames, db)
    }

    /// Readies the write-ahead log for the run's commit, at the run's start (after `begin`), on
    /// a background thread while the run reads its batch; nothing may use this store on another
    /// thread meanwhile, and nothing may have been written in the transaction yet. It copies
    /// the previous run's log into the database (`checkpoint(path:)`); when all of it was
    /// copied, it begins the log again with a commit that changes nothing (the schema version
    /// written as it is), then takes the write lock again for the run (a transaction that
    /// began before the log was copied would append to it).
    ///
    /// That commit writes and syncs the log's new header (which SQLite syncs before any frame
    /// when it begins the log again), and its first sync on this connection syncs the folder
    /// too: two syncs here, beside the reading, instead of in the run's commit, which then
    /// appends its pages after it and syncs the log once. The commit of nothing is not synced
    /// itself (`synchronous = NORMAL` for it alone): the run's commit syncs it with its own
    /// pages, and a power loss before that leaves the state as it was either way.
    ///
    /// `checkpointed` gets, as soon as the log has been copied and before it is begun again,
    /// the checkpoint's connection as a `RecordReader` of the users' records for the run (nil
    /// when that connection could not be opened), so that the records are read beside the rest.
    /// - Throws: as `begin`; "in use" when another connection took the lock, or committed,
    ///   in between (then what the run read at its start may be stale).
    public func prepareLog(checkpointed: (RecordReader?) -> Void = { _ in }) throws {
        let (complete, checkpointDb) = Self.checkpoint(path: path)
        checkpointed(checkpointDb.map(RecordReader.init))
        guard complete else { return }
        let before = try db.pragma("data_version")
        // Rolled back, not committed: `begin` may have raised an old schema's version, which
        // must become durable with the run's commit only.
        try db.exec("ROLLBACK")
        try db.exec("PRAGMA synchronous = NORMAL; BEGIN IMMEDIATE; PRAGMA user_version = \(version); COMMIT; PRAGMA synchronous = FULL")
        try begin()
        if try db.pragma("data_version") != before {
            rollback()
            throw RunError.failure("\(path): the state is in use by another run (it changed while this run started); try again when it has finished")
        }
    }

    /// Reads the users' records on a connection of its own, beside the run's connection, which
    /// holds the write lock and writes the run's records meanwhile: what it reads is the state as
    /// the run began (the run's writes are its connection's until the commit), in one read
    /// transaction. It is the connection of the run's checkpoint (`prepareLog(checkpointed:)`),
    /// whose log is then all in the database: a read transaction begun then reads the database
    /// file alone, and does not keep the run's commit of nothing from beginning the log again
    /// (a reader of frames in the log would, and the log would grow by a run's pages with every
    /// run). One thread at a time.
    public final class RecordReader: @unchecked Sendable {
        private let db: SQLiteDatabase
        private var reading = false
        init(_ db: SQLiteDatabase) { self.db = db }

        private var cursor: UserBlockCursor?

        /// The location of each of `ids` (in byte order, after every id located before, all
        /// calls in one read transaction): its block, read once.
        func locations<C: Collection>(sortedIds ids: C) throws -> [UserBlockCursor.Location] where C.Element == String {
            try begin()
            if cursor == nil { cursor = try UserBlockCursor(db) }
            return try ids.map { try cursor!.locate($0) }
        }

        /// As `StateStore.records(sortedIds:)`, all calls in one read transaction.
        public func records(sortedIds ids: [String]) throws -> [[UInt8]?] {
            try locations(sortedIds: ids).map { $0.record.map { Array($0) } }
        }

        /// As `StateStore.userIds()`, in the same read transaction.
        public func userIds() throws -> [String] {
            try begin()
            return try StateStore.userIds(in: db)
        }

        /// Ends the read transaction (the state is then read anew by the next call).
        public func end() {
            cursor = nil
            if reading { try? db.exec("COMMIT") }
            reading = false
        }

        private func begin() throws {
            guard !reading else { return }
            try db.exec("BEGIN")
            reading = true
        }

        deinit { end() }
    }

    /// Takes the write lock for one run. A state of an older schema is first converted to the
    /// current one, in a transaction of its own (`migrateToBlocks`).
    public func begin() throws {
        if version < Self.schemaVersion { try migrateToBlocks() }
        try db.exec("BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS" + Self.sourcesTable.dropFirst("CREATE TABLE".count))
    }

    /// The cache of fingerprints by the bytes of the campaigns' files (`sourceFingerprints`).
    /// A state from before it gets it with its next run's `begin`; builds that do not know it
    /// leave it alone, so it needs no schema version of its own.
    static let sourcesTable = "CREATE TABLE campaign_sources(source TEXT PRIMARY KEY, fingerprint TEXT NOT NULL) WITHOUT ROWID"

    /// Each fingerprint of the latest run's campaigns by its `CampaignFingerprint.sourceKey`
    /// (empty for a state without the table, read without `begin`).
    public func sourceFingerprints() throws -> [String: String] {
        let t = try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'campaign_sources'")
        try t.bind([])
        guard try t.step(), t.int(0) > 0 else { return [:] }
        let s = try db.prepare("SELECT source, fingerprint FROM campaign_sources")
        try s.bind([])
        var out: [String: String] = [:]
        while try s.step() { out[s.text(0)] = s.text(1) }
        return out
    }

    /// Replaces the cache of fingerprints by the campaigns' bytes.
    public func setSourceFingerprints(_ map: [String: String]) throws {
        try db.exec("DELETE FROM campaign_sources")
        let s = try db.prepare("INSERT INTO campaign_sources(source, fingerprint) VALUES (?1, ?2)")
        for (k, v) in map.sorted(by: { $0.key < $1.key }) { try s.run([.text(k), .text(v)]) }
    }
    /// Makes the run's changes durable, all together.
    public func commit() throws {
        try db.exec("COMMIT")
        version = Self.schemaVersion
    }
    /// Drops the run's changes.
    public func rollback() { try? db.exec("ROLLBACK") }

    /// A `meta` value.
    public func meta(_ key: String) throws -> String? {
        let s = try db.prepare("SELECT value FROM meta WHERE key = ?1")
        try s.bind([.text(key)])
        return try s.step() ? s.text(0) : nil
    }

    /// Sets a `meta` value.
    public func setMeta(_ key: String, _ value: String) throws {
        try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)").run([.text(key), .text(value)])
    }

    /// The campaigns, by slot.
    public func campaigns() throws -> [CampaignEntry] {
        let s = try db.prepare("SELECT slot, id, fingerprint, since_run FROM campaigns ORDER BY slot")
        try s.bind([])
        var out: [CampaignEntry] = []
        while try s.step() { out.append(CampaignEntry(slot: Int(s.int(0)), id: s.text(1), fingerprint: s.text(2), sinceRun: Int(s.int(3)))) }
        return out
    }

    /// Replaces the campaigns table.
    public func setCampaigns(_ entries: [CampaignEntry]) throws {
        try db.exec("DELETE FROM campaigns")
        let s = try db.prepare("INSERT INTO campaigns(slot, id, fingerprint, since_run) VALUES (?1, ?2, ?3, ?4)")
        for e in entries { try s.run([.int(Int64(e.slot)), .text(e.id), .text(e.fingerprint), .int(Int64(e.sinceRun))]) }
    }

    /// Reads user records one at a time (a stream's lookups).
    public final class UserReader {
        private let path: String
        private let stmt: SQLiteStatement
        init(_ db: SQLiteDatabase) throws {
            path = db.path
            stmt = try db.prepare("SELECT records FROM user_blocks WHERE first <= ?1 ORDER BY first DESC LIMIT 1")
        }
        /// The record of `id`, nil for a user the state does not hold.
        public func record(_ id: String) throws -> [UInt8]? { try withRecord(id) { Array($0) } }
        /// `body` of the record of `id` where SQLite holds it (no copy: decode it there,
        /// `UserState.decoded`); nil for a user the state does not hold.
        /// - Throws: `RunError.data` when its block cannot be read.
        public func withRecord<T>(_ id: String, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
            var id = id
            return try id.withUTF8 { i -> T? in
                try stmt.bind(text: UnsafeRawBufferPointer(i))
                guard try stmt.step() else { return nil }
                return try stmt.withBlob(0) { blob -> T? in
                    switch UserBlock.find(UnsafeRawBufferPointer(i), in: blob) {
                    case nil: return nil
                    case .record(_, let r)?: return try body(r)
                    case .damaged?: throw RunError.data("\(path): the state's blocks of user records are damaged; the state cannot be continued")
                    }
                }
            }
        }
    }

    /// A reader of user records.
    public func userReader() throws -> UserReader { try UserReader(db) }

    /// The records of `ids`, which must be in byte order without repeats (nil for a user the
    /// state does not hold), read in one pass over the blocks in key order (`UserBlockCursor`),
    /// each block that holds one of them read once.
    /// - Complexity: O(k log n) for k ids in a state of n users, pages read in key order.
    public func records(sortedIds ids: [String]) throws -> [[UInt8]?] {
        let cursor = try UserBlockCursor(db)
        return try ids.map { try cursor.locate($0).record.map { Array($0) } }
    }

    /// Every user id, in byte order.
    public func userIds() throws -> [String] { try Self.userIds(in: db) }

    /// `userIds()` on the connection `db`.
    private static func userIds(in db: SQLiteDatabase) throws -> [String] {
        var out: [String] = []
        try forEachBlock(in: db) { block in
            for i in block.entries.indices { out.append(String(decoding: block.id(i), as: UTF8.self)) }
        }
        return out
    }

    /// Writes user records one at a time (tests; a run writes its blocks with
    /// `UserBlockWriter`, a stream its users with `putRecords`).
    public final class UserWriter {
        private let store: StateStore
        init(_ store: StateStore) { self.store = store }
        /// Stores `record` for `id`.
        public func put(_ id: String, held: Int, record: [UInt8]) throws {
            try store.putRecords([(id, held, record)])
        }
    }

    /// A writer of user records.
    public func userWriter() throws -> UserWriter { UserWriter(self) }

    /// The latest run, if any; its output and rejects only `withOutput` (a repeated batch).
    public func latestRun(withOutput: Bool = false) throws -> RunEntry? {
        let s = try db.prepare("SELECT run, at, batch, command\(withOutput ? ", output, rejects" : "") FROM runs ORDER BY run DESC LIMIT 1")
        try s.bind([])
        guard try s.step() else { return nil }
        return RunEntry(run: Int(s.int(0)), at: s.text(1), batch: s.text(2), command: s.text(3),
                        output: withOutput ? s.blob(4) : [], rejects: withOutput ? s.blob(5) : [])
    }

    /// Records a run with its output; earlier runs keep their line but not their output. The
    /// new output goes in first: its pages come from those that were free when the run began,
    /// and the old output's pages are freed for the next run (the file does not grow).
    public func addRun(_ r: RunEntry) throws {
        try db.prepare("INSERT INTO runs(run, at, batch, command, output, rejects) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            .run([.int(Int64(r.run)), .text(r.at), .text(r.batch), .text(r.command), .blob(r.output), .blob(r.rejects)])
        try db.prepare("UPDATE runs SET output = NULL, rejects = NULL WHERE run < ?1 AND (output IS NOT NULL OR rejects IS NOT NULL)")
            .run([.int(Int64(r.run))])
    }

    /// What `--state-info` prints about the users: how many, decisions held, record bytes.
    public func userTotals() throws -> (users: Int, held: Int, recordBytes: Int) {
        guard version >= 3 else {
            let s = try db.prepare("SELECT count(*), coalesce(sum(held), 0), coalesce(sum(length(state)), 0) FROM users")
            try s.bind([])
            _ = try s.step()
            return (Int(s.int(0)), Int(s.int(1)), Int(s.int(2)))
        }
        var totals = (users: 0, held: 0, recordBytes: 0)
        try Self.forEachBlock(in: db) { block in
            totals.users += block.entries.count
            for e in block.entries {
                totals.held += Int(e.held)
                totals.recordBytes += Int(e.recordCount)
            }
        }
        return totals
    }

    /// A hash of what the state holds, wall-clock times aside (users, campaigns, runs with
    /// their batches and outputs, counters): two states that continue alike have equal digests.
    public func contentDigest() throws -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: [UInt8]) {
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = (h ^ 0xFF) &* 0x100_0000_01b3
        }
        // The users as a state of version 2 held them (a row of id, held, record each, in id
        // order), whatever the layout: a state converted to blocks keeps its digest.
        if version >= 3 {
            try Self.forEachBlock(in: db) { block in
                for (i, e) in block.entries.enumerated() {
                    mix(Array(block.id(i)))
                    mix(Array(String(e.held).utf8))
                    mix(Array(block.record(i)))
                }
            }
        }
        let queries: [(String, Int32)] = (version >= 3 ? [] : [("SELECT id, held, state FROM users ORDER BY id", 3)]) + [
            ("SELECT slot, id, fingerprint, since_run FROM campaigns ORDER BY slot", 4),
            ("SELECT run, batch, command, output, rejects FROM runs ORDER BY run", 5),
            ("SELECT key, value FROM meta WHERE key NOT IN ('final_at') ORDER BY key", 2),
        ]
        for (sql, columns) in queries {
            let st = try db.prepare(sql)
            try st.bind([])
            while try st.step() {
                for col in 0..<columns { mix(st.blob(col)) }
            }
        }
        return CampaignFingerprint.hex(h)
    }

    /// The database's size in bytes (pages in use).
    public func sizeBytes() throws -> Int {
        Int(try db.pragma("page_count") * db.pragma("page_size"))
    }
}

/// An exclusive `flock` on the file `PATH-lock` beside a state, held while the process keeps
/// the descriptor open (until `deinit`, or the process ends, a crash included: nothing stale
/// is left to clear). It is a file of its own, not the database's: closing any descriptor of
/// the database would drop the POSIX (`fcntl`) locks that SQLite holds on it in this process.
/// The file is empty, made when missing, and never removed (removing it would let a second
/// run lock a new file while the first still holds the old one).
final class StateLock {
    /// The path of the lock file of the state at `statePath`.
    static func path(of statePath: String) -> String { statePath + "-lock" }

    private let fd: Int32

    /// Takes the lock at once, or fails.
    /// - Throws: `RunError.failure`: "in use" when another run or stream holds it, or the file
    ///   cannot be made.
    init(statePath: String) throws {
        let lockPath = Self.path(of: statePath)
        fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RunError.failure("\(lockPath): cannot make the state's lock file: \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            if e == EINTR { continue }
            close(fd)
            if e == EWOULDBLOCK {
                throw RunError.failure("\(statePath): the state is in use by another run (a run or stream holds \(lockPath)); try again when it has finished")
            }
            throw RunError.failure("\(lockPath): cannot lock the state: \(String(cString: strerror(e)))")
        }
    }

    deinit { close(fd) }
}
