import Foundation
import XCTest
@testable import GeoCampaignCore

/// Reading whole JSON Lines files: line splitting, numbering, interning, ordering, rejects.
final class HistoryReadingTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ bytes: [UInt8], ext: String = "jsonl") -> String {
        let path = NSTemporaryDirectory() + "history-\(UUID().uuidString).\(ext)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        tempFiles.append(path)
        return path
    }

    func line(_ user: String, _ ts: Int, _ lat: Double = 1, _ lon: Double = 2) -> String {
        #"{"user": "\#(user)", "ts": \#(ts), "lat": \#(lat), "lon": \#(lon)}"#
    }

    /// Reads `bytes` through a file with the given block size; returns (line number, bytes) pairs.
    func lines(_ bytes: [UInt8], blockSize: Int) throws -> [(Int, [UInt8])] {
        let path = temp(bytes)
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var out: [(Int, [UInt8])] = []
        try BlockLineReader(fd: fd, path: path, blockSize: blockSize).forEachLine { n, p, c in
            out.append((n, Array(UnsafeBufferPointer(start: p, count: c))))
        }
        return out
    }

    func testLineSplittingAcrossBlocks() throws {
        let text = Array("\u{FEFF}first\r\nsecond\n\n  \r\nlong-line-spanning-many-blocks-of-sixteen-bytes\nlast".utf8)
        for blockSize in [16, 17, 64, 1 << 22] {
            let got = try lines(text, blockSize: blockSize)
            XCTAssertEqual(got.map { $0.0 }, [1, 2, 3, 4, 5, 6], "block \(blockSize)")
            XCTAssertEqual(got.map { String(decoding: $0.1, as: UTF8.self) },
                           ["first", "second", "", "  ", "long-line-spanning-many-blocks-of-sixteen-bytes", "last"],
                           "block \(blockSize)")
        }
        XCTAssertEqual(try lines(Array("a\n".utf8), blockSize: 16).count, 1)
        XCTAssertEqual(try lines([], blockSize: 16).count, 0)
        // Only the first line may carry a BOM; a lone \r inside a line stays.
        let got = try lines(Array("x\n\u{FEFF}y\na\rb\r\r\n".utf8), blockSize: 16)
        XCTAssertEqual(got.map { $0.1 }, [Array("x".utf8), Array("\u{FEFF}y".utf8), Array("a\rb\r".utf8)])
    }

    func testBuilderCountsLinesAndOrdersFixesStably() throws {
        let a = temp(Array(([
            line("u1", 30), "", line("u2", 10), "   \t", line("u1", 10, 1.5), line("u1", 20), "null",
            line("u1", 10, 2.5),
        ].joined(separator: "\r\n") + "\r\n").utf8))
        let b = temp(Array(([line("u2", 5), line("u1", 10, 3.5), line("u3", 1)].joined(separator: "\n")).utf8))
        let builder = HistoryBuilder()
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        try builder.read(path: a)
        try builder.read(path: b)
        let h = builder.finish()
        XCTAssertEqual(h.userIds, ["u1", "u2", "u3"])
        XCTAssertEqual(h.fixes[0].map(\.time), [10_000, 10_000, 10_000, 20_000, 30_000])
        // Equal times keep file order, then line order.
        XCTAssertEqual(h.fixes[0].map(\.lat), [1.5, 2.5, 3.5, 1, 1])
        XCTAssertEqual(h.fixes[1].map(\.time), [5_000, 10_000])
        XCTAssertEqual(h.stats.files, 2)
        XCTAssertEqual(h.stats.linesRead, 11)
        XCTAssertEqual(h.stats.blankLines, 2)
        XCTAssertEqual(h.stats.fixesAccepted, 8)
        XCTAssertEqual(h.stats.rejected(.notObject), 1)
        XCTAssertEqual(h.stats.totalRejected, 1)
        XCTAssertEqual(rejects, [RejectedLine(path: a, line: 7, reason: .notObject,
                                              detail: "the line is null, not an object", text: Array("null".utf8))])
    }

    func testUntilDropsLaterFixesAndUsersLeftWithoutFixes() throws {
        let path = temp(Array([line("a", 1), line("b", 5), line("a", 3), line("a", 2)].joined(separator: "\n").utf8))
        let builder = HistoryBuilder(until: 2_000)
        try builder.read(path: path)
        let h = builder.finish()
        XCTAssertEqual(h.userIds, ["a"])
        XCTAssertEqual(h.fixes[0].map(\.time), [1_000, 2_000])
        XCTAssertEqual(h.stats.fixesAccepted, 4)
        XCTAssertEqual(h.stats.fixesAfterUntil, 2)
    }

    func testManyUsersInterned() throws {
        var text: [String] = []
        for i in 0..<5_000 { text.append(line("user-\(i % 2_500)", i)) }
        let builder = HistoryBuilder()
        try builder.readJSONLines(bytes: Array(text.joined(separator: "\n").utf8), name: "mem")
        let h = builder.finish()
        XCTAssertEqual(h.userCount, 2_500)
        XCTAssertEqual(h.userIds[1_234], "user-1234")
        XCTAssertEqual(h.fixes[1_234].map(\.time), [1_234_000, 3_734_000])
    }

    func testRejectTextAndTooLongLine() throws {
        let long = #"{"user": "a", "pad": ""# + String(repeating: "x", count: 1 << 20) + #""}"#
        let bytes = Array((line("a", 1) + "\n" + long + "\n" + #"{"user": "caf"#).utf8) + [0xE9] + Array("\"}\r\n".utf8)
        let path = temp(bytes)
        let builder = HistoryBuilder()
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        try builder.read(path: path)
        XCTAssertEqual(rejects.map(\.line), [2, 3])
        XCTAssertEqual(rejects.map(\.reason), [.tooLong, .badEncoding])
        // A too-long line is not kept: its text is its first 1 KiB (issue 10 item 5).
        XCTAssertEqual(rejects[0].text, Array(long.utf8.prefix(1_024)))
        XCTAssertEqual(rejects[0].detail, "line is \(long.utf8.count) bytes, over the limit of 1 MiB; text is its first 1024 bytes")
        XCTAssertEqual(rejects[1].text, Array(#"{"user": "caf"#.utf8) + [0xE9] + Array("\"}".utf8))
        XCTAssertEqual(builder.finish().fixes.count, 1)
    }

    func testRejectHandlerCanStopReading() throws {
        struct Stop: Error {}
        let path = temp(Array([line("a", 1), "nope", line("a", 2)].joined(separator: "\n").utf8))
        let builder = HistoryBuilder()
        builder.onReject = { _ in throw Stop() }
        XCTAssertThrowsError(try builder.read(path: path)) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(builder.stats.linesRead, 2)
    }

    func testMissingFileNamesThePath() {
        let builder = HistoryBuilder()
        XCTAssertThrowsError(try builder.read(path: "/nonexistent/h.jsonl")) { error in
            guard case HistoryError.cannotOpen(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/h.jsonl")
            XCTAssertTrue("\(error)".contains("/nonexistent/h.jsonl"))
        }
        XCTAssertThrowsError(try builder.read(path: "/nonexistent/h.gpx")) { error in
            guard case HistoryError.cannotOpen(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/h.gpx")
        }
        XCTAssertThrowsError(try builder.read(path: NSTemporaryDirectory())) { error in
            guard case HistoryError.cannotOpen = error else { return XCTFail("\(error)") }
        }
    }

    func testRejectsWriterFormat() throws {
        let r = RejectedLine(path: "h.jsonl", line: 14, reason: .badEncoding, detail: "invalid UTF-8 at byte 5",
                             text: Array("{\"a\": \"caf".utf8) + [0xE9] + Array("\t\"}".utf8))
        XCTAssertEqual(String(decoding: RejectsWriter.line(for: r), as: UTF8.self),
                       "{\"line\": 14, \"reason\": \"bad_encoding\", \"detail\": \"invalid UTF-8 at byte 5\", "
                       + "\"text\": \"{\\\"a\\\": \\\"caf\u{FFFD}\\t\\\"}\"}\n")
        XCTAssertTrue(String(decoding: RejectsWriter.line(for: r, includeFile: true), as: UTF8.self)
            .hasSuffix(", \"file\": \"h.jsonl\"}\n"))

        let out = temp([], ext: "out")
        let writer = try RejectsWriter(path: out)
        try writer.write(r)
        try writer.write(RejectedLine(path: "h", line: 15, reason: .notObject, detail: "d", text: Array("null".utf8)))
        try writer.close()
        let written = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(written.count, 2)
        for l in written {
            let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any])
            XCTAssertEqual(Set(obj.keys), ["line", "reason", "detail", "text"])
        }
        XCTAssertEqual(String(written[1]), #"{"line": 15, "reason": "not_object", "detail": "d", "text": "null"}"#)
        XCTAssertThrowsError(try RejectsWriter(path: "/nonexistent/dir/rejects.jsonl"))
    }
}
