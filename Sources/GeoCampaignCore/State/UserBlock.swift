import Foundation

/// One row of the state's `user_blocks` table (schema version 3): the records of users whose ids
/// are consecutive in byte order, from the block's key `first` (inclusive) up to the next
/// block's key (exclusive). The first block's key is the empty string, so every id has exactly
/// one block: the one with the greatest key not above it.
///
/// The row's `records` blob holds, for each of its users in byte order of the ids: the id's
/// length and bytes, the user's held decisions, and the length and bytes of the user's record
/// (`UserState.encoded`, unchanged from version 2); lengths and counts are LEB128 numbers. The
/// row's `users` and `held` columns hold the count and the sum, checked when the blob is read.
///
/// A run reads the blocks of its batch's users once each, decodes their records where they lie
/// (no copy per user), and writes each block back whole (`UserBlock.Builder`): its users without
/// fixes in the batch are copied as the bytes they were. Rows of a block of users instead of one
/// row per user: a day's batch changes most of a state's pages either way (its users are spread
/// over the key order), but SQLite's work per row (the key's descent, the cell's insertion, the
/// statement) is paid once per block.
final class UserBlock: @unchecked Sendable {
    /// One user of the block: offsets into the blob.
    struct Entry: Sendable {
        /// Where the entry begins (its id's length).
        var start: Int32
        var idOffset: Int32
        var idCount: Int32
        var held: Int32
        var recordOffset: Int32
        var recordCount: Int32
        /// Where the next entry begins.
        var end: Int32 { recordOffset + recordCount }
    }

    /// The row, nil for a block no row holds yet (the first block of an empty state).
    let rowid: Int64?
    /// The block's key: the least id it may hold.
    let first: [UInt8]
    /// The blob (owned, freed with the block).
    private let storage: UnsafeMutableRawBufferPointer
    /// The users, in byte order of their ids.
    let entries: [Entry]

    /// The first block of an empty state (key "", no users, no row).
    static func empty() -> UserBlock { UserBlock(rowid: nil, first: [], storage: .allocate(byteCount: 0, alignment: 1), entries: []) }

    private init(rowid: Int64?, first: [UInt8], storage: UnsafeMutableRawBufferPointer, entries: [Entry]) {
        self.rowid = rowid
        self.first = first
        self.storage = storage
        self.entries = entries
    }

    deinit { storage.deallocate() }

    /// A copy of the row's blob `bytes`, read (`entries`).
    /// - Returns: nil when the blob is damaged: an entry cut short, ids not strictly increasing
    ///   in byte order or below `first`, or `users` and `held` unlike the entries'.
    /// - Complexity: O(bytes).
    static func read(rowid: Int64?, first: [UInt8], bytes: UnsafeRawBufferPointer, users: Int, held: Int) -> UserBlock? {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        if let b = bytes.baseAddress, bytes.count > 0 { storage.baseAddress!.copyMemory(from: b, byteCount: bytes.count) }
        guard users >= 0, users <= bytes.count, let entries = parse(UnsafeRawBufferPointer(storage), first: first, users: users, held: held) else {
            storage.deallocate()
            return nil
        }
        return UserBlock(rowid: rowid, first: first, storage: storage, entries: entries)
    }

    /// The entries of a blob, checked (see `read`).
    private static func parse(_ bytes: UnsafeRawBufferPointer, first: [UInt8], users: Int, held: Int) -> [Entry]? {
        guard bytes.count < Int(Int32.max) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(users)
        var r = StateReader(bytes)
        var at = 0
        var total = 0
        var previous: UnsafeRawBufferPointer?
        while !r.atEnd {
            let start = at
            guard let idCount = r.count(), case let idOffset = r.offset, r.skip(idCount),
                  let h = r.number(), let recordCount = r.count(), case let recordOffset = r.offset, r.skip(recordCount) else { return nil }
            let id = UnsafeRawBufferPointer(rebasing: bytes[idOffset..<(idOffset + idCount)])
            if let previous {
                guard Self.compare(previous, id) < 0 else { return nil }
            } else {
                guard first.withUnsafeBytes({ Self.compare($0, id) }) <= 0 else { return nil }
            }
            previous = id
            total += h
            entries.append(Entry(start: Int32(start), idOffset: Int32(idOffset), idCount: Int32(idCount), held: Int32(truncatingIfNeeded: h),
                                 recordOffset: Int32(recordOffset), recordCount: Int32(recordCount)))
            at = r.offset
        }
        guard entries.count == users, total == held else { return nil }
        return entries
    }

    /// Entry `i`'s id.
    func id(_ i: Int) -> UnsafeRawBufferPointer {
        let e = entries[i]
        return UnsafeRawBufferPointer(start: storage.baseAddress! + Int(e.idOffset), count: Int(e.idCount))
    }

    /// Entry `i`'s record, where the block holds it (valid while the block lives).
    func record(_ i: Int) -> UnsafeRawBufferPointer {
        let e = entries[i]
        return UnsafeRawBufferPointer(start: storage.baseAddress! + Int(e.recordOffset), count: Int(e.recordCount))
    }

    /// The bytes of entries `range`, as they stand in the blob (contiguous).
    func bytes(of range: Range<Int>) -> UnsafeRawBufferPointer {
        guard !range.isEmpty else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let a = Int(entries[range.lowerBound].start), b = Int(entries[range.upperBound - 1].end)
        return UnsafeRawBufferPointer(start: storage.baseAddress! + a, count: b - a)
    }

    /// The whole blob.
    var byteCount: Int { storage.count }

    /// Where `id` is or would be among the entries: the index of the first entry not below it,
    /// searching from `from`, and whether that entry is `id`.
    /// - Complexity: O(log n) comparisons of ids.
    func position(of id: UnsafeRawBufferPointer, from: Int = 0) -> (index: Int, found: Bool) {
        var lo = from, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Self.compare(self.id(mid), id) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo < entries.count && Self.compare(self.id(lo), id) == 0)
    }

    /// Byte order (SQLite's BINARY collation): negative, zero or positive.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let m = min(a.count, b.count)
        if m > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, m)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    /// The held count and record of `id` in a blob, read where it lies, without reading the
    /// whole block (a stream's lookup of one user).
    /// - Returns: nil when the blob does not hold `id`; `.damaged` when it cannot be read.
    static func find(_ id: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> Found? {
        var r = StateReader(bytes)
        while !r.atEnd {
            guard let idCount = r.count(), case let idOffset = r.offset, r.skip(idCount),
                  let h = r.number(), let recordCount = r.count(), case let recordOffset = r.offset, r.skip(recordCount) else { return .damaged }
            let c = compare(UnsafeRawBufferPointer(rebasing: bytes[idOffset..<(idOffset + idCount)]), id)
            if c == 0 { return .record(held: h, UnsafeRawBufferPointer(rebasing: bytes[recordOffset..<(recordOffset + recordCount)])) }
            if c > 0 { return nil }
        }
        return nil
    }

    /// What `find` found.
    enum Found {
        case record(held: Int, UnsafeRawBufferPointer)
        case damaged
    }
}
