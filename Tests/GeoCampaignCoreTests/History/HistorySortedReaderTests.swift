import Foundation
import XCTest
@testable import GeoCampaignCore

/// The streaming reader of grouped (`--sorted`) histories.
final class HistorySortedReaderTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ text: String, ext: String = "jsonl") -> String {
        let path = NSTemporaryDirectory() + "sorted-\(UUID().uuidString).\(ext)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        tempFiles.append(path)
        return path
    }

    func line(_ user: String, _ ts: Int, _ lat: Double = 1) -> String {
        #"{"user": "\#(user)", "ts": \#(ts), "lat": \#(lat), "lon": 2}"#
    }

    struct Streamed {
        var users: [(String, [Fix])] = []
        var rejects: [RejectedLine] = []
        var stats = HistoryStats()
    }

    func stream(_ paths: [String], until: Int64? = nil) throws -> Streamed {
        let reader = SortedHistoryReader(until: until)
        var out = Streamed()
        reader.onUser = { out.users.append(($0, $1)) }
        reader.onReject = { out.rejects.append($0) }
        for p in paths { try reader.read(path: p) }
        try reader.finish()
        out.stats = reader.stats
        XCTAssertEqual(reader.usersDelivered, out.users.count)
        return out
    }

    func build(_ paths: [String], until: Int64? = nil) throws -> (History, [RejectedLine]) {
        let builder = HistoryBuilder(until: until)
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        for p in paths { try builder.read(path: p) }
        return (builder.finish(), rejects)
    }

    /// Fixes compared bit for bit (a NaN accuracy is not equal to itself).
    func bits(_ fixes: [Fix]) -> [[UInt64]] {
        fixes.map { [UInt64(bitPattern: $0.time), $0.lat.bitPattern, $0.lon.bitPattern, $0.accuracy.bitPattern] }
    }

    /// Users in contiguous groups of random size, out-of-order and equal times, rejects, blanks.
    func generatedGrouped(users: Int) -> String {
        var rng: UInt64 = 7
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        var lines: [String] = []
        for u in 0..<users {
            for k in 0..<(1 + next(40)) {
                switch next(10) {
                case 0: lines.append("")
                case 1: lines.append(#"{"user": "g\#(u)", "ts": "bad", "lat": 1, "lon": 2}"#)
                default: lines.append(line("g\(u)", 1000 + next(15), Double(k)))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    func assertSame(_ paths: [String], until: Int64? = nil, _ name: String) throws {
        let s = try stream(paths, until: until)
        let (h, rejects) = try build(paths, until: until)
        XCTAssertEqual(s.users.map(\.0), h.userIds, name)
        XCTAssertEqual(s.users.map { bits($0.1) }, h.fixes.map(bits), name)
        XCTAssertEqual(s.rejects, rejects, name)
        XCTAssertEqual(s.stats, h.stats, name)
    }

    func testStreamingAGroupedFileGivesWhatTheBuilderGives() throws {
        let grouped = [
            line("b", 30), line("b", 10, 1.5), "", line("b", 10, 2.5), "not json",
            line("a", 5), line("a", 5, 3), #"{"user": "a", "ts": 1}"#, line("a", 1),
            line("c", 100), line("c", 200),
        ].joined(separator: "\n") + "\n"
        let g = temp(grouped)
        // The next file goes on with the last group, then starts new ones.
        let next = temp([line("c", 50), line("d", 1), line("e", 7)].joined(separator: "\r\n"))
        let cases: [([String], Int64?, String)] = [
            ([g], nil, "one file"),
            ([g], 30_000, "until drops later fixes"),
            ([g], 4_000, "until drops a whole user"),
            ([g, next], nil, "a group going on into the next file"),
            ([temp(generatedGrouped(users: 300))], nil, "generated"),
            ([temp(generatedGrouped(users: 300))], 1_007_000, "generated, until"),
        ]
        for (paths, until, name) in cases { try assertSame(paths, until: until, name) }
        let s = try stream([g], until: 4_000)
        XCTAssertEqual(s.users.map(\.0), ["a"])
        XCTAssertEqual(s.users.first?.1.map(\.time), [1_000])
    }

    func testAUserAppearingAgainIsAnErrorNamingTheLine() throws {
        let cases: [(String, [String], Int, String)] = [
            ("back after one other user", [line("u-1", 1), line("u-7", 1), "", line("u-1", 2)], 4, "u-1"),
            ("back after two", [line("a", 1), line("b", 1), line("c", 1), line("b", 2)], 4, "b"),
            ("rejected lines do not count", [line("a", 1), "{}", line("a", 2), line("b", 1)], 0, ""),
        ]
        for (name, lines, wantLine, wantUser) in cases {
            let path = temp(lines.joined(separator: "\n"))
            let reader = SortedHistoryReader()
            var delivered: [String] = []
            reader.onUser = { id, _ in delivered.append(id) }
            if wantLine == 0 {
                XCTAssertNoThrow(try reader.read(path: path), name)
                continue
            }
            XCTAssertThrowsError(try reader.read(path: path), name) { error in
                XCTAssertEqual(error as? HistorySortError, HistorySortError(path: path, line: wantLine, user: wantUser), name)
            }
            XCTAssertFalse(delivered.isEmpty, name)
        }
        XCTAssertEqual(HistorySortError(path: "history.jsonl", line: 1234, user: "u-7").description,
                       "history.jsonl:1234: user 'u-7' appears again after other users; --sorted needs each user's lines together")
    }

    func testAnUngroupedFileFailsAtTheFirstUserBack() throws {
        let path = HistoryTestPaths.sharedPath("spec/examples/conformance-1/history.jsonl")
        let reader = SortedHistoryReader()
        XCTAssertThrowsError(try reader.read(path: path)) { error in
            XCTAssertEqual(error as? HistorySortError, HistorySortError(path: path, line: 91, user: "u-0015"))
        }
    }

    func testAUserIsDeliveredAsSoonAsTheirGroupEnds() throws {
        let path = temp([line("a", 1), line("a", 2), line("b", 1), "[1]", line("c", 1)].joined(separator: "\n"))
        let reader = SortedHistoryReader()
        var events: [String] = []
        reader.onUser = { id, fixes in events.append("user \(id) \(fixes.count)") }
        reader.onReject = { r in events.append("reject \(r.line)") }
        try reader.read(path: path)
        // b's group ends at the first accepted line of another user, after the reject.
        XCTAssertEqual(events, ["user a 2", "reject 4", "user b 1"])
        try reader.finish()
        XCTAssertEqual(events.last, "user c 1")
    }

    func testProgressReachesTheFileSize() throws {
        let text = (0..<100).map { line("u\($0 / 10)", $0) }.joined(separator: "\n")
        let path = temp(text)
        let reader = SortedHistoryReader()
        var reports: [HistoryProgress] = []
        reader.progress = { reports.append($0) }
        try reader.read(path: path)
        try reader.finish()
        XCTAssertEqual(reports.last, HistoryProgress(path: path, bytesDone: text.utf8.count, bytesTotal: text.utf8.count,
                                                     allBytesDone: text.utf8.count))
    }
}
