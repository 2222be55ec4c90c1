import Foundation

/// Finds the block (`UserBlock`) of each of a sequence of user ids in byte order, on one
/// connection: one ordered pass over the blocks' keys (the index `user_blocks_first`), which
/// seeks anew (one B-tree descent) instead of stepping when the next id is far, so a batch of
/// few users does not read every key; each block that holds (or is to hold) an id is read once.
final class UserBlockCursor {
    /// Where an id is, or is to be: its block, the index of the first entry not below it, and
    /// whether that entry is the id's.
    struct Location: Sendable {
        let block: UserBlock
        let index: Int
        let found: Bool

        /// The id's stored record, where its block holds it; nil for a user the state does not hold.
        var record: UnsafeRawBufferPointer? { found ? block.record(index) : nil }
    }

    private let path: String
    /// The block with the greatest key not above `id`.
    private let containing: SQLiteStatement
    /// The keys from a key on, in order.
    private let scan: SQLiteStatement
    private let fetch: SQLiteStatement
    /// The block of the last id, and the key of the block after it (nil: none).
    private var current: UserBlock?
    private var upper: [UInt8]?
    /// The scan's row after `current` (its key and row), when the scan is positioned.
    private var pending: (first: [UInt8], rowid: Int64)?
    private var scanning = false
    /// Where the last id was found in `current` (ids come in order).
    private var hint = 0
    /// Blocks passed without an id before seeking instead.
    private let patience = 8

    init(_ db: SQLiteDatabase) throws {
        path = db.path
        containing = try db.prepare("SELECT first, rowid FROM user_blocks WHERE first <= ?1 ORDER BY first DESC LIMIT 1")
        scan = try db.prepare("SELECT first, rowid FROM user_blocks WHERE first >= ?1 ORDER BY first")
        fetch = try db.prepare("SELECT users, held, records FROM user_blocks WHERE rowid = ?1")
    }

    /// The location of `id`, which must come after every id located before (byte order).
    /// - Throws: `RunError.data` when a block cannot be read (a damaged state).
    func locate(_ id: String) throws -> Location {
        var id = id
        return try id.withUTF8 { try locate(UnsafeRawBufferPointer($0)) }
    }

    /// As `locate(_:)`, for an id's bytes.
    func locate(_ id: UnsafeRawBufferPointer) throws -> Location {
        if current == nil || upper.map({ k in k.withUnsafeBytes { UserBlock.compare($0, id) <= 0 } }) == true {
            try advance(to: id)
        }
        guard let block = current else { throw damaged() }
        let (index, found) = block.position(of: id, from: hint)
        hint = index
        return Location(block: block, index: index, found: found)
    }

    /// Makes the block of `id` current: by stepping the scan a few blocks on, else by a seek.
    private func advance(to id: UnsafeRawBufferPointer) throws {
        var candidate: (first: [UInt8], rowid: Int64)?
        if scanning, var next = pending {
            for _ in 0..<patience {
                // `next` is the block after the current one, whose key is not above `id`.
                guard let after = try step(), after.first.withUnsafeBytes({ UserBlock.compare($0, id) <= 0 }) else {
                    candidate = next
                    break
                }
                next = after
            }
        }
        if candidate == nil {
            try containing.bind(text: id)
            guard try containing.step() else {
                // No key at or below `id`: an empty state (every state's first key is "").
                try scan.bind([.text("")])
                scanning = false
                if try scan.step() { throw damaged() }
                current = UserBlock.empty()
                upper = nil
                pending = nil
                hint = 0
                return
            }
            let c = (first: containing.blob(0), rowid: containing.int(1))
            try c.first.withUnsafeBytes { try scan.bind(text: $0) }
            scanning = true
            guard let same = try step(), same.rowid == c.rowid else { throw damaged() }
            _ = try step()
            candidate = c
        }
        guard let c = candidate else { throw damaged() }
        try fetch.bind([.int(c.rowid)])
        guard try fetch.step(), let block = fetch.withBlob(2, { bytes in
            UserBlock.read(rowid: c.rowid, first: c.first, bytes: bytes, users: Int(fetch.int(0)), held: Int(fetch.int(1)))
        }) else { throw damaged() }
        current = block
        upper = pending?.first
        hint = 0
    }

    /// The scan's next row (kept as `pending`); nil at its end.
    private func step() throws -> (first: [UInt8], rowid: Int64)? {
        pending = try scan.step() ? (scan.blob(0), scan.int(1)) : nil
        if pending == nil { scanning = false }
        return pending
    }

    private func damaged() -> RunError {
        .data("\(path): the state's blocks of user records are damaged; the state cannot be continued")
    }
}
