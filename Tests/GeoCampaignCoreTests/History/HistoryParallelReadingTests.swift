import Foundation
import XCTest
@testable import GeoCampaignCore

/// The parallel JSON Lines reader gives exactly the history, counters and rejects of one thread.
final class HistoryParallelReadingTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "parallel-\(UUID().uuidString).jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        tempFiles.append(path)
        return path
    }

    struct Result: Equatable {
        var ids: [String]
        var fixes: [[Fix]]
        var stats: HistoryStats
        var rejects: [RejectedLine]

        /// Fixes compared bit for bit (NaN accuracy included).
        static func == (a: Result, b: Result) -> Bool {
            func bits(_ f: [[Fix]]) -> [[[UInt64]]] {
                f.map { $0.map { [UInt64(bitPattern: $0.time), $0.lat.bitPattern, $0.lon.bitPattern, $0.accuracy.bitPattern] } }
            }
            return a.ids == b.ids && bits(a.fixes) == bits(b.fixes) && a.stats == b.stats && a.rejects == b.rejects
        }
    }

    /// Reads `paths` in sequence with `threads` threads, every file split (no size threshold).
    func read(_ paths: [String], threads: Int, until: Int64? = nil, minBytes: Int = 0, partBytes: Int = 16 << 20) throws -> Result {
        let builder = HistoryBuilder(until: until)
        builder.threads = threads
        builder.parallelMinBytes = minBytes
        builder.partBytes = partBytes
        builder.parallelMinFixes = 0
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        for p in paths { try builder.read(path: p) }
        let h = builder.finish()
        return Result(ids: h.userIds, fixes: h.fixes, stats: h.stats, rejects: rejects)
    }

    /// A file with rejects, blank lines, CRLF, a BOM, equal timestamps and users spread out.
    func generated(seed: UInt64, lines: Int, bom: Bool) -> [UInt8] {
        var rng = seed
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        var out: [UInt8] = bom ? [0xEF, 0xBB, 0xBF] : []
        for i in 0..<lines {
            let user = "u\(next(7))"
            let ts = 1_700_000_000 + next(20)
            let text: String
            switch next(12) {
            case 0: text = ""
            case 1: text = #"{"user": "\#(user)", "ts": "not a time", "lat": 1, "lon": 2}"#
            case 2: text = "[1, 2]"
            case 3: text = #"{"user": "\#(user)", "ts": \#(ts), "lat": 91, "lon": 2}"#
            default: text = #"{"user": "\#(user)", "ts": \#(ts), "lat": \#(Double(i) / 1000), "lon": 2, "accuracy": \#(next(50))}"#
            }
            out += Array(text.utf8)
            out += next(5) == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        return out
    }

    func testSameHistoryForAnyThreadCount() throws {
        let conformance = HistoryTestPaths.sharedPath("spec/examples/conformance-1/history.jsonl")
        let edge = HistoryTestPaths.fixture("edge-lines.jsonl")
        let a = temp(generated(seed: 1, lines: 3000, bom: true))
        let b = temp(generated(seed: 2, lines: 1000, bom: false))
        var noFinalNewline = generated(seed: 3, lines: 50, bom: false)
        noFinalNewline.removeLast()
        let c = temp(noFinalNewline)
        let empty = temp([])
        let oneLine = temp(Array(#"{"user": "x", "ts": 5, "lat": 1, "lon": 2}"#.utf8))
        let cases: [(String, [String], Int64?)] = [
            ("conformance", [conformance], nil),
            ("edge lines", [edge], nil),
            ("generated", [a], nil),
            ("generated, until", [a], 1_700_000_010_000),
            ("several files", [a, b, c, empty, oneLine, a], nil),
            ("tiny files", [empty, oneLine, c], nil),
        ]
        for (name, paths, until) in cases {
            let one = try read(paths, threads: 1, until: until)
            XCTAssertGreaterThan(one.stats.linesRead, 0, name)
            for t in 2...5 {
                let many = try read(paths, threads: t, until: until)
                XCTAssertEqual(many, one, "\(name), \(t) threads")
                // Up to 8 parts per thread, each thread taking the next part as it finishes one
                // (with one reader and buffer for all the parts it takes).
                let parts = try read(paths, threads: t, until: until, partBytes: 1_000)
                XCTAssertEqual(parts, one, "\(name), \(t) threads, many parts")
            }
        }
        // Small files (and a GPX track) read on one thread between files read on several.
        let gpx = HistoryTestPaths.fixture("mixed-times.gpx")
        let mixed = [c, a, oneLine, gpx, b, empty, c, gpx, a]
        let one = try read(mixed, threads: 1)
        XCTAssertEqual(try read(mixed, threads: 3, minBytes: 20_000), one, "mixed sizes")
        XCTAssertEqual(try read(mixed, threads: 2, minBytes: 1 << 30), one, "all on one thread")
        // The generated file does have rejects, equal times and several users.
        let g = try read([a], threads: 3)
        XCTAssertGreaterThan(g.rejects.count, 100)
        XCTAssertEqual(g.ids.count, 7)
        XCTAssertTrue(g.fixes.contains { f in zip(f, f.dropFirst()).contains { $0.time == $1.time } })
    }

    func testOnlyTheFirstLineOfTheFileLosesItsBOM() throws {
        let bom = "\u{FEFF}"
        let lines = (0..<40).map { i in (i == 0 || i == 20 ? bom : "") + #"{"user": "u", "ts": \#(i), "lat": 1, "lon": 2}"# }
        let path = temp(Array(lines.joined(separator: "\n").utf8))
        for t in 1...4 {
            let r = try read([path], threads: t)
            XCTAssertEqual(r.stats.fixesAccepted, 39, "\(t) threads")
            XCTAssertEqual(r.rejects.map(\.line), [21], "\(t) threads")
            XCTAssertEqual(r.rejects.first?.reason, .invalidJSON, "\(t) threads")
        }
    }

    func testAThrowingRejectHandlerStopsAtTheFirstRejectInFileOrder() throws {
        let a = temp(generated(seed: 4, lines: 500, bom: false))
        struct Stop: Error { var line: Int }
        var firsts: [Int] = []
        for t in 1...4 {
            let builder = HistoryBuilder()
            builder.threads = t
            builder.parallelMinBytes = 0
            var seen = 0
            builder.onReject = { r in
                seen += 1
                throw Stop(line: r.line)
            }
            XCTAssertThrowsError(try builder.read(path: a)) { error in
                if let stop = error as? Stop { firsts.append(stop.line) } else { XCTFail("\(error)") }
            }
            XCTAssertEqual(seen, 1)
        }
        XCTAssertEqual(Set(firsts).count, 1)
    }

    func testProgressCoversTheWholeFile() throws {
        let bytes = generated(seed: 5, lines: 2000, bom: false)
        let path = temp(bytes)
        for t in [1, 3] {
            let builder = HistoryBuilder()
            builder.threads = t
            builder.parallelMinBytes = 0
            var reports: [HistoryProgress] = []
            builder.progress = { reports.append($0) }
            try builder.read(path: path)
            try builder.read(path: path)
            XCTAssertEqual(reports.last, HistoryProgress(path: path, bytesDone: bytes.count, bytesTotal: bytes.count,
                                                         allBytesDone: 2 * bytes.count), "\(t) threads")
            XCTAssertEqual(reports.map(\.allBytesDone), reports.map(\.allBytesDone).sorted(), "\(t) threads")
        }
    }

    func testLineStartFindsTheNextLine() throws {
        let path = temp(Array("ab\ncd\n\nef".utf8))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let table: [(Int, Int)] = [(0, 0), (1, 3), (2, 3), (3, 3), (4, 6), (6, 6), (7, 7), (8, 10), (10, 10)]
        for (at, want) in table {
            XCTAssertEqual(try HistoryBuilder.lineStart(fd: fd, path: path, atOrAfter: at, size: 10), want, "at \(at)")
        }
    }
}

/// The parser's cache of the last date never changes what a timestamp means.
final class HistoryDateCacheTests: XCTestCase {
    func testOneParserGivesWhatFreshParsersGive() {
        let stamps = [
            "2026-02-28T10:00:00Z", "2026-02-28T23:59:59.999+01:00", "2026-02-29T10:00:00Z", "2026-02-28T24:00:00Z",
            "2024-02-29T00:00:00Z", "2024-02-29T00:00:60Z", "2024-02-29 00:00:00Z", "2024-02-29T00:00:00",
            "2024-02-30T00:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999Z",
            "9999-12-31T23:59:59.999-00:01", "2024-02-29T12:00:00.5-08:00", "2024-02-29T12:00:00Z",
        ]
        let shared = JSONLineParser()
        for round in 0..<2 {
            for ts in stamps {
                let line = Array(#"{"user": "u", "ts": "\#(ts)", "lat": 1, "lon": 2, "accuracy": 5}"#.utf8)
                XCTAssertEqual(shared.parse(line: line), JSONLineParser().parse(line: line), "\(ts), round \(round)")
            }
        }
        XCTAssertEqual(JSONLineParser().parse(line: Array(#"{"user": "u", "ts": "2024-02-29T00:00:01Z", "lat": 1, "lon": 2, "accuracy": 5}"#.utf8)),
                       .accepted(user: "u", fix: Fix(time: 1_709_164_801_000, lat: 1, lon: 2, accuracy: 5)))
    }
}
