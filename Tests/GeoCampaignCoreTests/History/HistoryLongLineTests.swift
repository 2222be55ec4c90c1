import Foundation
import XCTest
@testable import GeoCampaignCore

/// Issue 10 item 5: a line (or CSV row) over 1 MiB is one `too_long` reject whose text is bounded;
/// the reader skips to the next line end without keeping the bytes, and the lines after it are read.
final class HistoryLongLineTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ bytes: [UInt8], ext: String) -> String {
        let path = NSTemporaryDirectory() + "longline-\(UUID().uuidString).\(ext)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        tempFiles.append(path)
        return path
    }

    /// A good line, 20 MB of one line without a quote or line end, then two good lines.
    func file(csv: Bool) -> String {
        let good = csv ? ["u,1,1,2", "u,2,1,2", "v,3,1,2"] : (1...3).map { #"{"user": "\#($0 == 3 ? "v" : "u")", "ts": \#($0), "lat": 1, "lon": 2}"# }
        var bytes = Array(((csv ? "user,ts,lat,lon\n" : "") + good[0] + "\n").utf8)
        bytes += [UInt8](repeating: 0x78, count: 20_000_000)
        bytes += Array(("\r\n" + good[1] + "\n" + good[2]).utf8)
        return temp(bytes, ext: csv ? "csv" : "jsonl")
    }

    func check(_ rejects: [RejectedLine], _ users: [String], _ counts: [Int], csv: Bool, _ label: String) {
        XCTAssertEqual(users, ["u", "v"], label)
        XCTAssertEqual(counts, [2, 1], label)
        XCTAssertEqual(rejects.count, 1, label)
        XCTAssertEqual(rejects.first?.reason, .tooLong, label)
        XCTAssertEqual(rejects.first?.line, csv ? 3 : 2, label)
        XCTAssertEqual(rejects.first?.text, [UInt8](repeating: 0x78, count: 1_024), label)
        XCTAssertEqual(rejects.first?.detail,
                       "\(csv ? "row" : "line") is 20000000 bytes, over the limit of 1 MiB; text is its first 1024 bytes", label)
    }

    func testWholeFileReaderOnOneAndTwoThreads() throws {
        for csv in [false, true] {
            let path = file(csv: csv)
            for threads in [1, 2] {
                let builder = HistoryBuilder()
                builder.threads = threads
                var rejects: [RejectedLine] = []
                builder.onReject = { rejects.append($0) }
                try builder.read(path: path)
                let h = builder.finish()
                check(rejects, h.userIds, h.fixes.map(\.count), csv: csv, "csv \(csv), threads \(threads)")
                XCTAssertEqual(h.stats.linesRead, csv ? 5 : 4)
                XCTAssertEqual(h.stats.rejected(.tooLong), 1)
            }
        }
    }

    func testSortedReader() throws {
        for csv in [false, true] {
            let reader = SortedHistoryReader()
            var rejects: [RejectedLine] = []
            var users: [String] = [], counts: [Int] = []
            reader.onReject = { rejects.append($0) }
            reader.onUser = { id, fixes in
                users.append(id)
                counts.append(fixes.count)
            }
            try reader.read(path: file(csv: csv))
            try reader.finish()
            check(rejects, users, counts, csv: csv, "sorted, csv \(csv)")
        }
    }
}
