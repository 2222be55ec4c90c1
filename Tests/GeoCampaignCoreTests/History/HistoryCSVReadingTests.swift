import Foundation
import XCTest
@testable import GeoCampaignCore

/// Reading whole CSV files: headers, rows that span lines, line numbers of rejects, and the same
/// history on one thread, on several (a quoted cell across a part boundary included) and
/// streamed with `--sorted`.
final class HistoryCSVReadingTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ text: String, ext: String = "csv") -> String {
        let path = NSTemporaryDirectory() + "history-\(UUID().uuidString).\(ext)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        tempFiles.append(path)
        return path
    }

    struct Result: Equatable {
        var ids: [String]
        var times: [[Int64]]
        var coords: [[Double]]
        var stats: HistoryStats
        var rejects: [RejectedLine]
    }

    func read(_ paths: [String], threads: Int, fields: HistoryFields = HistoryFields(), partBytes: Int = 16 << 20) throws -> Result {
        let builder = HistoryBuilder(fields: fields)
        builder.threads = threads
        builder.parallelMinBytes = 0
        builder.partBytes = partBytes
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        for p in paths { try builder.read(path: p) }
        let h = builder.finish()
        return Result(ids: h.userIds, times: h.fixes.map { $0.map(\.time) }, coords: h.fixes.map { $0.flatMap { [$0.lat, $0.lon] } },
                      stats: h.stats, rejects: rejects)
    }

    func testHeaderRowsAndRejectLines() throws {
        let text = "\u{FEFF}\n  \nuser;ts;lat;lon\r\n"
            + "a;10;1,5;2\r\n"
            + "\"b\nc\";20;1;2\r\n"       // a user id with a line end: one row on lines 5-6
            + "a;30;x;2\n"               // line 7: bad_type
            + "\"a\";\"40\";\"1\";\"2\";extra\n"  // line 8: 5 columns
            + "\n"
            + "a;50;1;2"
        let path = temp(text)
        let r = try read([path], threads: 1)
        XCTAssertEqual(r.ids, ["a", "b\nc"])
        XCTAssertEqual(r.times, [[10_000, 50_000], [20_000]])
        XCTAssertEqual(r.coords[0], [1.5, 2, 1, 2])
        XCTAssertEqual(r.rejects.map(\.line), [7, 8])
        XCTAssertEqual(r.rejects.map(\.reason), [.badType, .badType])
        XCTAssertEqual(r.rejects[1].text, Array("\"a\";\"40\";\"1\";\"2\";extra".utf8))
        XCTAssertEqual(r.stats.linesRead, 10)
        XCTAssertEqual(r.stats.blankLines, 3)
        XCTAssertEqual(r.stats.fixesAccepted, 3)
    }

    func testAHeaderThatCannotBeReadIsRejectedAndItsRowsAreMissingField() throws {
        let broken = temp("\"user\"x,ts,lat,lon\n\nu,1,1,2\n")
        let r = try read([broken], threads: 1)
        XCTAssertEqual(r.rejects.map(\.reason), [.badType, .missingField])
        XCTAssertEqual(r.rejects.map(\.line), [1, 3])
        XCTAssertEqual(r.rejects[1].detail, #"missing field "user": malformed header row: text after a closing quote at byte 7"#)
        let path = NSTemporaryDirectory() + "history-\(UUID().uuidString).csv"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([0x75, 0xFF, 0x0A, 0x75, 0x0A])))
        tempFiles.append(path)
        XCTAssertEqual(try read([path], threads: 1).rejects.map(\.reason), [.badEncoding, .missingField])
    }

    func testEachFileHasItsOwnHeader() throws {
        let a = temp("user,ts,lat,lon\nu,1,1,2\n")
        let b = temp("lon;lat;ts;user\n3;4;2;u\n")
        let r = try read([a, b], threads: 1)
        XCTAssertEqual(r.times, [[1_000, 2_000]])
        XCTAssertEqual(r.coords, [[1, 2, 4, 3]])
    }

    func testJSONLinesAndCSVFilesInOneRun() throws {
        let a = temp(#"{"user": "u", "ts": 3, "lat": 1, "lon": 2}"# + "\nnope\n", ext: "jsonl")
        let b = temp("user,ts,lat,lon\nu,1,1,2\nv,2,1,2\nu,x,1,2\n")
        let c = temp(#"{"user": "v", "ts": 4, "lat": 1, "lon": 2}"#, ext: "jsonl")
        let r = try read([a, b, c], threads: 1)
        XCTAssertEqual(r.ids, ["u", "v"])
        XCTAssertEqual(r.times, [[1_000, 3_000], [2_000, 4_000]])
        XCTAssertEqual(r.rejects.map { "\($0.path == b ? "b" : "a"):\($0.line) \($0.reason.rawValue)" }, ["a:2 invalid_json", "b:4 bad_timestamp"])
        XCTAssertEqual(r.stats.files, 3)
        XCTAssertEqual(r.stats.linesRead, 2 + 4 + 1)
    }

    func testFormatForcedByFields() throws {
        // A .txt file read as CSV, a .csv file read as JSON Lines.
        var csv = HistoryFields()
        csv.format = .csv
        XCTAssertEqual(try read([temp("user,ts,lat,lon\nu,1,1,2\n", ext: "txt")], threads: 1, fields: csv).times, [[1_000]])
        var jsonl = HistoryFields()
        jsonl.format = .jsonLines
        let r = try read([temp(#"{"user": "u", "ts": 1, "lat": 1, "lon": 2}"#)], threads: 1, fields: jsonl)
        XCTAssertEqual(r.times, [[1_000]])
    }

    /// A generated history with quoted cells, line ends inside them, rejects and blank lines.
    func generated(rows: Int, seed: UInt64, quotedNewlines: Bool) -> String {
        var rng = SplitMix64(seed: seed)
        var out = "note,user,ts,lat,lon,accuracy\n"
        for i in 0..<rows {
            let u = "user-\(rng.next() % 97)"
            let ts = 1_795_946_405 + Int(rng.next() % 100_000)
            let note: String
            switch rng.next() % 10 {
            case 0: note = quotedNewlines ? "\"multi\nline \"\"note\"\"\"" : "\"quoted, with a comma\""
            case 1: note = ""
            default: note = "n\(i)"
            }
            var row = "\(note),\(u),\(ts),\(Double(rng.next() % 9_000) / 100),\(Double(rng.next() % 18_000) / 100),\(rng.next() % 50)"
            switch rng.next() % 40 {
            case 0: row = "\(note),\(u),\(ts),95,1,1"            // out_of_range
            case 1: row = "\(note),,\(ts),1,1,1"                 // missing_field
            case 2: row = "\(note),\(u),\(ts),1,1"               // bad_type: columns
            case 3: row = ""
            case 4: row = "\(note),\"\(u)\",\"\(ts)\",1,1,"      // quoted, no accuracy
            default: break
            }
            out += row + (rng.next() % 5 == 0 ? "\r\n" : "\n")
        }
        return out
    }

    func testParallelReadingEqualsOneThread() throws {
        for quotedNewlines in [false, true] {
            for seed in 1...4 as ClosedRange<UInt64> {
                let path = temp(generated(rows: 3_000, seed: seed, quotedNewlines: quotedNewlines))
                let one = try read([path], threads: 1)
                XCTAssertGreaterThan(one.rejects.count, 100)
                for threads in [2, 3, 7] {
                    XCTAssertEqual(try read([path], threads: threads), one, "seed \(seed), threads \(threads), newlines \(quotedNewlines)")
                    // Many parts taken in turn by each thread (with quoted line ends, some part
                    // ends inside quotes: then the file is read again on one thread).
                    XCTAssertEqual(try read([path], threads: threads, partBytes: 2_000), one,
                                   "seed \(seed), threads \(threads), newlines \(quotedNewlines), many parts")
                }
            }
        }
    }

    func testAQuotedCellAcrossThePartBoundaryIsReadAgainOnOneThread() throws {
        // Two parts: the middle of the file falls inside a long quoted note.
        let head = "user,ts,lat,lon,note\n" + String(repeating: "a,1,1,2,x\n", count: 100)
        let note = "\"" + String(repeating: "line\n", count: 200) + "\""
        let text = head + "b,2,1,2," + note + "\n" + String(repeating: "c,3,1,2,y\n", count: 100) + "c,4,1,2,\"open\n"
        let path = temp(text)
        let one = try read([path], threads: 1)
        XCTAssertEqual(one.ids, ["a", "b", "c"])
        XCTAssertEqual(one.rejects.map(\.line), [403])
        XCTAssertEqual(try read([path], threads: 2), one)
    }

    func testSortedReaderGivesTheSameUsersAndRejects() throws {
        let text = "user,ts,lat,lon\n" + "\"a\",1,1,2\na,2,1,2\nb,x,1,2\n\"b\n\",3,1,2\nb,1,1,2\n"
        let path = temp(text)
        let reader = SortedHistoryReader()
        var users: [String] = [], times: [[Int64]] = [], rejects: [RejectedLine] = []
        reader.onReject = { rejects.append($0) }
        reader.onUser = { id, fixes in
            users.append(id)
            times.append(fixes.map(\.time))
        }
        try reader.read(path: path)
        try reader.finish()
        XCTAssertEqual(users, ["a", "b\n", "b"])
        XCTAssertEqual(times, [[1_000, 2_000], [3_000], [1_000]])
        XCTAssertEqual(rejects.map(\.line), [4])
        XCTAssertEqual(reader.stats.linesRead, 7)
        let whole = try read([path], threads: 1)
        XCTAssertEqual(whole.rejects, rejects)
        XCTAssertEqual(whole.stats, reader.stats)
    }
}
