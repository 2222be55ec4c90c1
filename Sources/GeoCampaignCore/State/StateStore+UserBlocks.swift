extension StateStore {
    /// The users' records of schema version 3: blocks of users consecutive in byte order of
    /// their ids (`UserBlock`), each keyed by the least id it may hold (the first block by "").
    /// A rowid table with an index on the key: a block's row is a few KiB, which SQLite keeps
    /// on the table's leaf pages, where a table keyed by text (`WITHOUT ROWID`) would spill
    /// every row beyond about 1 KiB to overflow pages.
    static let blocksSchema = """
        CREATE TABLE user_blocks(first TEXT NOT NULL, users INTEGER NOT NULL, held INTEGER NOT NULL, records BLOB NOT NULL);
        CREATE UNIQUE INDEX user_blocks_first ON user_blocks(first);
        """

    /// A writer of whole blocks in the run's transaction (`UserBlockWriter`).
    func blockWriter() throws -> UserBlockWriter { try UserBlockWriter(db) }

    /// Stores each user's record, `records` in byte order of the ids without repeats: each
    /// block that holds (or is to hold) one of them is read and written once.
    /// - Complexity: O(k log n + b) for k users in a state of n users, b the bytes of their blocks.
    public func putRecords(_ records: [(id: String, held: Int, record: [UInt8])]) throws {
        guard !records.isEmpty else { return }
        // Every location first: the cursor reads the table it is about to be written.
        let cursor = try UserBlockCursor(db)
        let locations = try records.map { try cursor.locate($0.id) }
        let writer = try UserBlockWriter(db)
        for (r, location) in zip(records, locations) { try writer.set(location, id: r.id, held: r.held, record: r.record) }
        try writer.finish()
    }

    /// Every block on the connection `db`, in key order.
    /// - Throws: `RunError.data` for a block that cannot be read.
    static func forEachBlock(in db: SQLiteDatabase, _ body: (UserBlock) throws -> Void) throws {
        let s = try db.prepare("SELECT users, held, records, first, rowid FROM user_blocks ORDER BY first")
        try s.bind([])
        while try s.step() {
            let first = s.blob(3)
            guard let block = s.withBlob(2, { UserBlock.read(rowid: s.int(4), first: first, bytes: $0, users: Int(s.int(0)), held: Int(s.int(1))) }) else {
                throw RunError.data("\(db.path): the state's blocks of user records are damaged; the state cannot be continued")
            }
            try body(block)
        }
    }

    /// Converts a state of schema version 1 or 2 (a row per user in the table `users`) to the
    /// current version, in a transaction of its own: the same users, held counts and records
    /// (their bytes as they were) in blocks, the table `users` dropped, `user_version` set.
    /// The content is unchanged (`contentDigest` is the same before and after), so a run killed
    /// after this commit leaves a state that its rerun continues as it would have the old one.
    /// - Complexity: O(n) for n users, read in key order.
    func migrateToBlocks() throws {
        try db.exec("BEGIN IMMEDIATE")
        do {
            // Another run may have converted it since this one opened it.
            let current = try db.pragma("user_version")
            guard current < Self.schemaVersion else {
                try db.exec("COMMIT")
                version = current
                return
            }
            try db.exec(Self.blocksSchema)
            let writer = try UserBlockWriter(db)
            let rows = try db.prepare("SELECT id, held, state FROM users ORDER BY id")
            try rows.bind([])
            // Rows of about half the most a block takes, as a split leaves them; the first keyed "".
            var builder = UserBlock.Builder()
            var keyed = false
            while try rows.step() {
                rows.withBlob(0) { id in rows.withBlob(2) { builder.append(id: id, held: Int(rows.int(1)), record: $0) } }
                if builder.bytes.count >= UserBlockWriter.maxBytes / 2 {
                    try writer.insert(builder, keyedEmpty: !keyed)
                    keyed = true
                    builder.reset()
                }
            }
            if !builder.isEmpty { try writer.insert(builder, keyedEmpty: !keyed) }
            try db.exec("DROP TABLE users; PRAGMA user_version = \(Self.schemaVersion); COMMIT")
            version = Self.schemaVersion
        } catch {
            rollback()
            throw error
        }
    }
}
