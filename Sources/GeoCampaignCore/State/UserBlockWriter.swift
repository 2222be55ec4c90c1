/// Writes users' new records into their blocks (`UserBlock`), users in byte order of their ids,
/// each at its `UserBlockCursor.Location`: a block is written once all of its users have come,
/// whole, its users without a new record copied as their bytes stand; a block grown past
/// `maxBytes` is split into rows of about half that (the first keeps the block's row and key,
/// the others are new rows keyed by their first id).
///
/// One thread at a time, on the connection that holds the run's write transaction.
final class UserBlockWriter {
    /// The most bytes of a block's blob before it is split; a split leaves about half, so a
    /// block can take its users' growth for a while. A block of about 6 KB (30 users of the M
    /// city) is a row whose first 1.9 KB lie on a leaf page of the table, two or so to a page,
    /// and the rest on a full overflow page. Pages written to the log by the 30 days of
    /// `bench_state.py` (small days of 99 and 385 users, big days of 4,349 and 5,211, of
    /// 10,000), by the largest block: 7 KB (rows that fit on a page, half empty after a
    /// split) 124, 365, 789, 804; 12 KB 173, 440, 710, 723; 16 KB 198, 481, 720, 729; 24 KB
    /// 268, 523, 675, 685; a row per user (schema version 2) 116, 353, 709, 791. Larger
    /// blocks cost a batch of few users more (each of its users rewrites its whole block);
    /// SQLite's work per row makes many small rows dearer. Tests lower it to make many blocks
    /// of few users.
    nonisolated(unsafe) static var maxBytes = 12_000

    private let update: SQLiteStatement
    private let insert: SQLiteStatement
    /// The block being written and its entries so far; `cursor`: its stored entries copied or
    /// replaced so far.
    private var current: UserBlock?
    private var cursor = 0
    private var builder = UserBlock.Builder()
    /// Rows written (updated or inserted) so far.
    private(set) var rowsWritten = 0

    init(_ db: SQLiteDatabase) throws {
        update = try db.prepare("UPDATE user_blocks SET users = ?1, held = ?2, records = ?3 WHERE rowid = ?4")
        insert = try db.prepare("INSERT INTO user_blocks(users, held, records, first) VALUES (?1, ?2, ?3, ?4)")
    }

    /// Sets the record of the user `id` at `location` (after every user set before, in byte
    /// order); nil keeps the stored record (a user the state holds) or adds nothing (one it does not).
    func set(_ location: UserBlockCursor.Location, id: UnsafeRawBufferPointer, held: Int, record: UnsafeRawBufferPointer?) throws {
        let block = location.block
        if current !== block {
            try flush()
            current = block
            cursor = 0
            builder.reset(reserving: block.byteCount + 1024)
        }
        if location.index > cursor { builder.append(block, entries: cursor..<location.index) }
        if let record {
            builder.append(id: id, held: held, record: record)
        } else if location.found {
            builder.append(block, entries: location.index..<(location.index + 1))
        }
        cursor = max(cursor, location.found ? location.index + 1 : location.index)
    }

    /// As `set(_:id:held:record:)`, with the id as a string and the record as an array.
    func set(_ location: UserBlockCursor.Location, id: String, held: Int, record: [UInt8]?) throws {
        var id = id
        try id.withUTF8 { i in
            if let record {
                try record.withUnsafeBytes { try set(location, id: UnsafeRawBufferPointer(i), held: held, record: $0) }
            } else {
                try set(location, id: UnsafeRawBufferPointer(i), held: held, record: nil)
            }
        }
    }

    /// Inserts the entries of `builder` as one new row, keyed "" (the first block) when
    /// `keyedEmpty`, else by its first id (a state's conversion, `StateStore.migrateToBlocks`).
    func insert(_ builder: UserBlock.Builder, keyedEmpty: Bool) throws {
        guard let p = builder.pieces(maxBytes: .max).first else { return }
        try builder.bytes.withUnsafeBytes { all in
            let key = keyedEmpty ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(rebasing: all[p.firstId])
            try insert.run(borrowing: [.int(Int64(p.users)), .int(Int64(p.held)), .blob(UnsafeRawBufferPointer(rebasing: all[p.range])), .text(key)])
        }
        rowsWritten += 1
    }

    /// Writes the block being written; to be called once every user has been set.
    func finish() throws { try flush() }

    private func flush() throws {
        guard let block = current else { return }
        current = nil
        builder.append(block, entries: cursor..<block.entries.count)
        let pieces = builder.pieces(maxBytes: Self.maxBytes)
        try builder.bytes.withUnsafeBytes { all in
            for (k, p) in pieces.enumerated() {
                let values: [SQLiteStatement.Borrowed] = [.int(Int64(p.users)), .int(Int64(p.held)), .blob(UnsafeRawBufferPointer(rebasing: all[p.range]))]
                if k == 0, let rowid = block.rowid {
                    try update.run(borrowing: values + [.int(rowid)])
                } else if k == 0 {
                    // The first row of an empty state: keyed "" (block.first).
                    try block.first.withUnsafeBytes { try insert.run(borrowing: values + [.text($0)]) }
                } else {
                    try insert.run(borrowing: values + [.text(UnsafeRawBufferPointer(rebasing: all[p.firstId]))])
                }
                rowsWritten += 1
            }
        }
    }
}
