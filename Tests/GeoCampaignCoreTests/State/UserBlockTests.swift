import Foundation
import XCTest
@testable import GeoCampaignCore

/// A block of users' records (`UserBlock`, schema version 3): what the builder writes reads back
/// entry for entry, the pieces a block is cut into cover it in order within their bound, and a
/// damaged blob is refused, never read wrong and never a crash.
final class UserBlockTests: XCTestCase {
    /// Ids in byte order, among them "" and ids that are prefixes of others, non-ASCII ones.
    static let pool: [String] = {
        var ids = ["", "a", "a\u{0}", "ab", "abc", "b", "u-1", "u-10", "u-2", "z", "é", "éé", "\u{1F600}", "\u{2028}"]
        ids += (0..<60).map { "u-\(String(format: "%05d", $0 * 7))" }
        return Array(Set(ids)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }()

    struct Entry: Equatable {
        var id: String
        var held: Int
        var record: [UInt8]
    }

    static func randomEntries(_ rng: inout SplitMix64) -> [Entry] {
        pool.filter { _ in rng.next() % 3 == 0 }.map { id in
            let n = Int(rng.next() % 5 == 0 ? rng.next() % 700 : rng.next() % 40)
            return Entry(id: id, held: Int(rng.next() % 4), record: (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
    }

    static func build(_ entries: [Entry]) -> UserBlock.Builder {
        var b = UserBlock.Builder()
        for e in entries {
            var id = e.id
            id.withUTF8 { i in e.record.withUnsafeBytes { b.append(id: UnsafeRawBufferPointer(i), held: e.held, record: $0) } }
        }
        return b
    }

    static func read(_ bytes: [UInt8], users: Int, held: Int, first: [UInt8] = []) -> UserBlock? {
        bytes.withUnsafeBytes { UserBlock.read(rowid: 1, first: first, bytes: $0, users: users, held: held) }
    }

    static func entries(of block: UserBlock) -> [Entry] {
        block.entries.indices.map { Entry(id: String(decoding: block.id($0), as: UTF8.self), held: Int(block.entries[$0].held), record: Array(block.record($0))) }
    }

    func testABuiltBlockReadsBackEntryForEntry() throws {
        var rng = SplitMix64(seed: 5)
        for round in 0..<200 {
            let entries = Self.randomEntries(&rng)
            let b = Self.build(entries)
            let block = try XCTUnwrap(Self.read(b.bytes, users: entries.count, held: entries.reduce(0) { $0 + $1.held }), "round \(round)")
            XCTAssertEqual(Self.entries(of: block), entries, "round \(round)")
            // Every id of the pool: where it is or would be, and the stream's lookup.
            for id in Self.pool {
                var utf8 = id
                utf8.withUTF8 { i in
                    let bytes = UnsafeRawBufferPointer(i)
                    let (index, found) = block.position(of: bytes)
                    let expected = entries.firstIndex { !$0.id.utf8.lexicographicallyPrecedes(id.utf8) } ?? entries.count
                    XCTAssertEqual(index, expected, "round \(round), \(id)")
                    XCTAssertEqual(found, entries.contains { $0.id == id }, "round \(round), \(id)")
                    let lookup = b.bytes.withUnsafeBytes { blob -> [UInt8]?? in
                        switch UserBlock.find(bytes, in: blob) {
                        case nil: return .some(nil)
                        case .record(_, let r)?: return .some(Array(r))
                        case .damaged?: return .none
                        }
                    }
                    XCTAssertEqual(lookup, .some(entries.first { $0.id == id }?.record), "round \(round), \(id)")
                }
            }
        }
    }

    /// The pieces cover the entries in order, each within the bound (or one entry alone), one
    /// piece when the entries fit; their counts and held sums are their entries'.
    func testPiecesCoverTheEntriesWithinTheirBound() throws {
        var rng = SplitMix64(seed: 9)
        var split = 0
        for round in 0..<300 {
            let entries = Self.randomEntries(&rng)
            let b = Self.build(entries)
            let maxBytes = 16 + Int(rng.next() % 3000)
            let pieces = b.pieces(maxBytes: maxBytes)
            XCTAssertEqual(pieces.count, entries.isEmpty ? 0 : (b.bytes.count <= maxBytes ? 1 : pieces.count), "round \(round)")
            if pieces.count > 1 { split += 1 }
            var next = 0, k = 0
            for p in pieces {
                XCTAssertEqual(p.range.lowerBound, next, "round \(round): contiguous")
                next = p.range.upperBound
                let part = Array(entries[k..<(k + p.users)])
                k += p.users
                XCTAssertGreaterThan(p.users, 0)
                XCTAssertTrue(p.range.count <= maxBytes || p.users == 1, "round \(round): \(p.range.count) bytes over \(maxBytes)")
                XCTAssertEqual(String(decoding: b.bytes[p.firstId], as: UTF8.self), part.first?.id)
                let block = try XCTUnwrap(Self.read(Array(b.bytes[p.range]), users: p.users, held: p.held))
                XCTAssertEqual(Self.entries(of: block), part, "round \(round)")
            }
            XCTAssertEqual(next, b.bytes.count)
            XCTAssertEqual(k, entries.count)
        }
        XCTAssertGreaterThan(split, 50, "blocks were split")
    }

    /// A blob cut short, with a byte changed, with its ids out of order or below its key, or
    /// with counts unlike its columns is refused (nil), never read wrong; the lookup of one user
    /// either finds a record inside the blob or says it is damaged.
    func testADamagedBlobIsRefused() throws {
        var rng = SplitMix64(seed: 13)
        let entries = Array(Self.randomEntries(&rng).prefix(12))
        XCTAssertGreaterThan(entries.count, 3)
        let b = Self.build(entries)
        let held = entries.reduce(0) { $0 + $1.held }
        XCTAssertNotNil(Self.read(b.bytes, users: entries.count, held: held))
        XCTAssertNil(Self.read(b.bytes, users: entries.count + 1, held: held), "a count unlike the column")
        XCTAssertNil(Self.read(b.bytes, users: entries.count, held: held + 1), "a held sum unlike the column")
        XCTAssertNil(Self.read(b.bytes, users: entries.count, held: held, first: Array(entries[1].id.utf8)), "an id below the block's key")
        XCTAssertNil(Self.read(Self.build([entries[1], entries[0]] + entries[2...]).bytes, users: entries.count, held: held), "ids out of order")
        XCTAssertNil(Self.read(Self.build([entries[0], entries[0]]).bytes, users: 2, held: 2 * entries[0].held), "an id twice")
        for n in 0..<b.bytes.count {
            XCTAssertNil(Self.read(Array(b.bytes.prefix(n)), users: entries.count, held: held), "cut at \(n)")
        }
        for _ in 0..<2000 {
            var bytes = b.bytes
            let at = Int(rng.next() % UInt64(bytes.count))
            bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            if let block = Self.read(bytes, users: entries.count, held: held) {
                XCTAssertEqual(block.entries.count, entries.count)
            }
            bytes.withUnsafeBytes { blob in
                for e in entries {
                    var utf8 = e.id
                    utf8.withUTF8 { i in
                        if case .record(_, let r)? = UserBlock.find(UnsafeRawBufferPointer(i), in: blob) {
                            XCTAssertTrue(r.count == 0 || (r.baseAddress! >= blob.baseAddress! && r.baseAddress! + r.count <= blob.baseAddress! + blob.count))
                        }
                    }
                }
            }
        }
    }
}
