import Foundation
import XCTest
@testable import GeoCampaignCore

/// The packed history of the batch replay: input grouped by user keeps the buffers it was parsed
/// into (users cut by a part boundary or found in several files copied), other input is
/// regrouped; either way each user's fixes are those of the input, stably sorted by time.
final class PackedHistoryTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    /// One line of input: its user, time (s) and a latitude that tells the line apart.
    struct Line {
        var user: String
        var ts: Int
        var lat: Double
        var text: String { #"{"user": "\#(user)", "ts": \#(ts), "lat": \#(lat), "lon": 2}"# }
    }

    func temp(_ lines: [Line]) -> String {
        let path = NSTemporaryDirectory() + "packed-\(UUID().uuidString).jsonl"
        let text = lines.map(\.text).joined(separator: "\n") + "\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        tempFiles.append(path)
        return path
    }

    /// `users` users with 1 to 60 lines each, times out of order and often equal.
    func lines(seed: UInt64, users: Int, first: Int = 0) -> [[Line]] {
        var rng = seed
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        var serial = 0
        return (first..<(first + users)).map { u in
            (0..<(1 + next(60))).map { _ in
                serial += 1
                return Line(user: "u\(u)", ts: 1_700_000_000 + next(15), lat: Double(serial) / 10_000 + Double(seed))
            }
        }
    }

    /// What any reading must give: users in order of first appearance, each one's fixes in input
    /// order stably sorted by time.
    func expected(_ input: [Line]) -> [(String, [Double])] {
        var order: [String] = []
        var byUser: [String: [Line]] = [:]
        for l in input {
            if byUser[l.user] == nil { order.append(l.user) }
            byUser[l.user, default: []].append(l)
        }
        return order.map { u in
            let sorted = byUser[u]!.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }
            return (u, sorted.map(\.element.lat))
        }
    }

    func packed(_ paths: [String], threads: Int, partBytes: Int = 16 << 20) throws -> PackedHistory {
        let builder = HistoryBuilder()
        builder.threads = threads
        builder.parallelMinBytes = 0
        builder.partBytes = partBytes
        builder.parallelMinFixes = 0
        for p in paths { try builder.read(path: p) }
        return builder.finishPacked()
    }

    func check(_ h: PackedHistory, _ want: [(String, [Double])], _ name: String) {
        XCTAssertEqual(h.userIds, want.map(\.0), name)
        for (u, (_, lats)) in want.enumerated() where u < h.userCount {
            XCTAssertEqual(h.withFixes(of: u) { $0.map(\.lat) }, lats, "\(name), user \(u)")
        }
        // The arrays of `History` hold the same.
        let arrays = h.unpack(threads: 3)
        XCTAssertEqual(arrays.userIds, want.map(\.0), name)
        XCTAssertEqual(arrays.fixes.map { $0.map(\.lat) }, want.map(\.1), name)
    }

    func testGroupedInputKeepsItsBuffersAndSplitUsersAreJoined() throws {
        let a = lines(seed: 1, users: 40), b = lines(seed: 2, users: 30, first: 35)
        // File b starts with users 35-39 again (found in two files), then new ones.
        let fa = temp(a.flatMap { $0 }), fb = temp(b.flatMap { $0 })
        for threads in [1, 2, 3, 5] {
            let one = try packed([fa], threads: threads)
            XCTAssertFalse(one.regrouped, "grouped, \(threads) threads")
            check(one, expected(a.flatMap { $0 }), "one file, \(threads) threads")
            let two = try packed([fa, fb], threads: threads)
            // On one thread both files are one part, where users 35-39 have two stretches.
            XCTAssertEqual(two.regrouped, threads == 1, "two files, \(threads) threads")
            check(two, expected((a + b).flatMap { $0 }), "two files, \(threads) threads")
            // Many small parts: more users cut by a part boundary, joined in input order.
            let parts = try packed([fa, fb], threads: threads, partBytes: 2_000)
            XCTAssertEqual(parts.regrouped, threads == 1, "two files, \(threads) threads, many parts")
            check(parts, expected((a + b).flatMap { $0 }), "two files, \(threads) threads, many parts")
        }
    }

    func testInterleavedInputIsRegrouped() throws {
        let a = lines(seed: 3, users: 25)
        // Round robin over the users: each user's lines in several stretches.
        var input: [Line] = []
        var k = 0
        while input.count < a.reduce(0, { $0 + $1.count }) {
            for u in a.indices where k < a[u].count { input.append(a[u][k]) }
            k += 1
        }
        let f = temp(input)
        for threads in [1, 2, 4] {
            for partBytes in [16 << 20, 2_000] {
                let h = try packed([f], threads: threads, partBytes: partBytes)
                XCTAssertTrue(h.regrouped, "\(threads) threads")
                check(h, expected(input), "interleaved, \(threads) threads, parts of \(partBytes) bytes")
            }
        }
    }
}
