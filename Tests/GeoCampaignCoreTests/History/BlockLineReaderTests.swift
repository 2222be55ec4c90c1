import Foundation
import XCTest
@testable import GeoCampaignCore

/// `BlockLineReader`: CSV rows that span lines, and lines over the limit skipped in bounded memory.
final class BlockLineReaderTests: XCTestCase {
    var tempFiles: [String] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(atPath: f) }
        tempFiles = []
    }

    func temp(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "blocklines-\(UUID().uuidString).txt"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        tempFiles.append(path)
        return path
    }

    struct Read: Equatable {
        var lines: [Int] = []
        var texts: [String] = []
        /// Too-long lines: (number, kept prefix, full length).
        var long: [[Int]] = []
        var longPrefixes: [String] = []
        var physical = 0
        var midRow = false
    }

    /// Reads `bytes` through a file (or a byte range of it) with the given block size and limit.
    func read(_ bytes: [UInt8], blockSize: Int, limit: Int = 1 << 20, quoted: Bool,
              range: Range<Int>? = nil) throws -> (Read, Int) {
        try read(path: temp(bytes), blockSize: blockSize, limit: limit, quoted: quoted, range: range)
    }

    func read(path: String, blockSize: Int, limit: Int, quoted: Bool, range: Range<Int>? = nil) throws -> (Read, Int) {
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let reader: BlockLineReader
        if let range {
            reader = try BlockLineReader(fd: fd, path: path, range: range, blockSize: blockSize, limit: limit, quoted: quoted)
        } else {
            reader = try BlockLineReader(fd: fd, path: path, blockSize: blockSize, limit: limit, quoted: quoted)
        }
        var out = Read()
        reader.onTooLong = { n, p, kept, length in
            out.long.append([n, kept, length])
            out.longPrefixes.append(String(decoding: UnsafeBufferPointer(start: p, count: kept), as: UTF8.self))
        }
        try reader.forEachLine { n, p, c in
            out.lines.append(n)
            out.texts.append(String(decoding: UnsafeBufferPointer(start: p, count: c), as: UTF8.self))
        }
        out.physical = reader.lines
        out.midRow = reader.endedMidRow
        return (out, reader.bufferCapacity)
    }

    /// A read buffer that cannot be allocated is an error naming the file, not a crash; the same
    /// reader with a buffer that fits reads the file (so the error comes from the size alone).
    func testABufferThatCannotBeAllocatedIsAReadError() throws {
        let path = temp(Array("a\nb\n".utf8))
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let impossible = 1 << 62
        for range in [nil, 0..<Int.max - 16] as [Range<Int>?] {
            XCTAssertThrowsError(try range.map { try BlockLineReader(fd: fd, path: path, range: $0, blockSize: impossible) }
                                 ?? BlockLineReader(fd: fd, path: path, blockSize: impossible)) { error in
                XCTAssertEqual(error as? HistoryError, .readFailed(path: path, reason: "out of memory: cannot allocate a read buffer of \(impossible) bytes"))
                XCTAssertEqual("\(error)", "\(path): error: read failed: out of memory: cannot allocate a read buffer of \(impossible) bytes")
            }
        }
        XCTAssertEqual(try read(path: path, blockSize: 1 << 20, limit: 1 << 20, quoted: false).0.texts, ["a", "b"])
    }

    func testQuotedRowsSpanLinesAndKeepTheirNumbers() throws {
        let text = "h1,h2\r\n\"a\nb\",1\r\n\"x\"\"y\r\n\",2\nplain,\"\"\n\"open\nrest"
        for blockSize in [16, 17, 23, 64, 1 << 22] {
            let (got, _) = try read(Array(text.utf8), blockSize: blockSize, quoted: true)
            XCTAssertEqual(got.lines, [1, 2, 4, 6, 7], "block \(blockSize)")
            XCTAssertEqual(got.texts, ["h1,h2", "\"a\nb\",1", "\"x\"\"y\r\n\",2", "plain,\"\"", "\"open\nrest"], "block \(blockSize)")
            XCTAssertEqual(got.physical, 8)
            XCTAssertTrue(got.midRow)
        }
        // Without `quoted`, every line end ends a line.
        let (plain, _) = try read(Array(text.utf8), blockSize: 16, quoted: false)
        XCTAssertEqual(plain.lines, [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertTrue(plain.midRow)  // "rest" has no line end
        XCTAssertFalse(try read(Array("a\n\"b\nc\"\n".utf8), blockSize: 16, quoted: true).0.midRow)
    }

    func testTooLongLinesAreSkippedToTheNextLineEnd() throws {
        // Limit 10: "0123456789" fits, "0123456789A" does not; \r is not counted.
        let text = "0123456789\r\n0123456789A\nok\n" + String(repeating: "z", count: 100) + "\r\nlast\n" + String(repeating: "e", count: 40)
        for blockSize in [16, 17, 32, 1 << 22] {
            for quoted in [false, true] {
                let (got, cap) = try read(Array(text.utf8), blockSize: blockSize, limit: 10, quoted: quoted)
                XCTAssertEqual(got.lines, [1, 3, 5], "block \(blockSize)")
                XCTAssertEqual(got.texts, ["0123456789", "ok", "last"])
                XCTAssertEqual(got.long, [[2, 11, 11], [4, 100, 100], [6, 40, 40]], "block \(blockSize)")
                XCTAssertEqual(got.physical, 6)
                XCTAssertLessThanOrEqual(cap, max(blockSize, 32), "block \(blockSize)")
            }
        }
    }

    func testATooLongQuotedRowEndsAtTheFirstLineEndPastTheLimit() throws {
        // The quote never closes: the row is too long at the first line end past 10 bytes, and
        // reading goes on from there, whatever the block size.
        let text = "\"ab\ncd\nefghijklmnopqrstuvwxyz0123\nmn\nnext,1\n\"q\nz\"\n"
        for blockSize in [16, 17, 19, 1 << 22] {
            let (got, _) = try read(Array(text.utf8), blockSize: blockSize, limit: 10, quoted: true)
            XCTAssertEqual(got.long.map { $0[0] }, [1], "block \(blockSize)")
            XCTAssertEqual(got.long.first, [1, 33, 33], "block \(blockSize)")
            XCTAssertEqual(got.lines, [4, 5, 6], "block \(blockSize)")
            XCTAssertEqual(got.texts, ["mn", "next,1", "\"q\nz\""], "block \(blockSize)")
            XCTAssertEqual(got.physical, 7)
        }
    }

    func testPrefixIsCutBeforeASplitCharacter() throws {
        let line = String(repeating: "a", count: 1_023) + "é" + String(repeating: "b", count: 2_000)
        let (got, _) = try read(Array((line + "\nok").utf8), blockSize: 1 << 22, limit: 1_500, quoted: false)
        XCTAssertEqual(got.long.first?[1], 1_023)
        XCTAssertEqual(got.longPrefixes.first, String(repeating: "a", count: 1_023))
        XCTAssertEqual(got.texts, ["ok"])
    }

    /// The rules of the type's documentation, byte by byte: what the reader must hand out.
    func reference(_ b: [UInt8], limit: Int, quoted: Bool) -> Read {
        var out = Read()
        var i = 0, line = 1
        while i < b.count {
            let rawStart = i, startLine = line
            let s = i == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : i
            var inQuotes = false, j = i, end = b.count, forced = false, inner = 0
            while j < b.count {
                if quoted && b[j] == 0x22 { inQuotes.toggle() }
                if b[j] == 0x0A {
                    if inQuotes && j - rawStart <= limit {
                        inner += 1
                    } else {
                        end = j
                        forced = inQuotes
                        break
                    }
                }
                j += 1
            }
            var e = end
            if e > s && b[e - 1] == 0x0D { e -= 1 }
            let content = Array(b[min(s, e)..<e])
            if forced || content.count > limit {
                let keep = content.withUnsafeBufferPointer { BlockLineReader.prefixLength($0.baseAddress!, content.count) }
                out.long.append([startLine, keep, content.count])
                out.longPrefixes.append(String(decoding: content[0..<keep], as: UTF8.self))
            } else {
                out.lines.append(startLine)
                out.texts.append(String(decoding: content, as: UTF8.self))
            }
            if end == b.count { out.midRow = true }
            line += inner + 1
            i = end + 1
        }
        out.physical = line - 1
        return out
    }

    /// Random bytes from a small alphabet (quotes, line ends, separators, a BOM at times), read
    /// with every block size and limit: exactly what the rules say.
    func testRandomInputMatchesTheRules() throws {
        var rng = SplitMix64(seed: 10)
        let alphabet: [UInt8] = [0x22, 0x22, 0x0A, 0x0A, 0x0D, 0x2C, 0x61, 0x62, 0x20, 0xC3, 0xA9]
        for round in 0..<200 {
            var bytes: [UInt8] = rng.next() % 8 == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<Int(rng.next() % 120) { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let path = temp(bytes)
            for quoted in [false, true] {
                for limit in [4, 10, 1 << 20] {
                    let want = reference(bytes, limit: limit, quoted: quoted)
                    for blockSize in [16, 17, 23, 64] {
                        let (got, _) = try read(path: path, blockSize: blockSize, limit: limit, quoted: quoted)
                        XCTAssertEqual(got, want, "round \(round), quoted \(quoted), limit \(limit), block \(blockSize): \(bytes)")
                        if got != want { return }
                    }
                    let (ranged, _) = try read(path: path, blockSize: 16, limit: limit, quoted: quoted, range: 0..<bytes.count)
                    XCTAssertEqual(ranged, want, "range, round \(round)")
                }
            }
        }
    }

    /// A reader restarted on another byte range (`restart(range:)`, as a thread reading several
    /// parts of a file does) reads it as a reader made for that range: lines numbered from 1,
    /// the BOM dropped only at offset 0, too-long lines and a row left open counted afresh.
    func testARestartedReaderReadsTheNextRangeAsAFreshOne() throws {
        var rng = SplitMix64(seed: 12)
        let alphabet: [UInt8] = [0x22, 0x0A, 0x0A, 0x0D, 0x2C, 0x61, 0x62, 0x20]
        for round in 0..<100 {
            var bytes: [UInt8] = round % 4 == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<Int(20 + rng.next() % 200) { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let path = temp(bytes)
            let fd = open(path, O_RDONLY)
            defer { close(fd) }
            let cuts = [0] + (0..<3).map { _ in Int(rng.next() % UInt64(bytes.count + 1)) }.sorted() + [bytes.count]
            for quoted in [false, true] {
                let reader = try BlockLineReader(fd: fd, path: path, range: cuts[0]..<cuts[1], blockSize: 16, limit: 12, quoted: quoted)
                for k in 0..<(cuts.count - 1) {
                    let range = cuts[k]..<cuts[k + 1]
                    if k > 0 { try reader.restart(range: range, blockSize: 16) }
                    var got = Read()
                    reader.onTooLong = { n, _, kept, length in got.long.append([n, kept, length]) }
                    try reader.forEachLine { n, p, c in
                        got.lines.append(n)
                        got.texts.append(String(decoding: UnsafeBufferPointer(start: p, count: c), as: UTF8.self))
                    }
                    got.physical = reader.lines
                    got.midRow = reader.endedMidRow
                    var want = try read(path: path, blockSize: 16, limit: 12, quoted: quoted, range: range).0
                    want.longPrefixes = []
                    XCTAssertEqual(got, want, "round \(round), quoted \(quoted), range \(range)")
                }
            }
        }
    }

    /// Issue 10 item 5: a 20 MB line without an end no longer grows the buffer (it did to 32 MiB,
    /// and the reject kept all 20 MB); the lines after it are read.
    func testA20MBLineIsSkippedInBoundedMemory() throws {
        let good = #"{"user": "a", "ts": 1, "lat": 1, "lon": 2}"#
        var bytes = Array((good + "\n").utf8)
        bytes += [UInt8](repeating: 0x78, count: 20_000_000)
        bytes += Array(("\n" + good + "\n" + good).utf8)
        for range in [nil, 0..<bytes.count] as [Range<Int>?] {
            let (got, cap) = try read(bytes, blockSize: BlockLineReader.blockSize, quoted: false, range: range)
            XCTAssertEqual(got.lines, [1, 3, 4])
            XCTAssertEqual(got.long, [[2, 1_024, 20_000_000]])
            XCTAssertEqual(cap, BlockLineReader.blockSize)
        }
    }

    /// The default block is filled `BlockLineReader.readSize` bytes at a time: lines that cross
    /// the boundaries of those reads (and a line longer than one read, within the limit) come
    /// out whole, in order and numbered, from a file, a byte range of it and a pipe; a line past
    /// the limit is still skipped with its full length.
    func testLinesAcrossReadBoundariesComeOutWhole() throws {
        var rng = SystemRandomNumberGenerator()
        var want: [String] = []
        var bytes: [UInt8] = []
        let step = BlockLineReader.readSize
        // Lines of 0 to 300 bytes, then one of 1.5 reads, then one ending exactly at a read's end.
        while bytes.count < 2 * step {
            let line = String(repeating: "abcdefghij", count: Int.random(in: 0...30, using: &rng)) + "\(want.count)"
            want.append(line)
            bytes += Array((line + "\n").utf8)
        }
        let big = String(repeating: "x", count: step + step / 2)
        want.append(big)
        bytes += Array((big + "\n").utf8)
        let pad = 4 * step - bytes.count - 1
        let exact = String(repeating: "y", count: pad)
        want.append(exact)
        bytes += Array((exact + "\n").utf8)
        XCTAssertEqual(bytes.count, 4 * step)
        bytes += Array("tail".utf8)
        want.append("tail")
        let tooLong = 1 << 20 + 5
        bytes += [0x0A] + [UInt8](repeating: 0x7A, count: tooLong) + Array("\nend\n".utf8)
        want.append("end")
        let path = temp(bytes)
        for range in [nil, 0..<bytes.count] as [Range<Int>?] {
            let (got, cap) = try read(path: path, blockSize: BlockLineReader.blockSize, limit: 1 << 20, quoted: false, range: range)
            XCTAssertEqual(got.texts, want, "range \(String(describing: range))")
            XCTAssertEqual(got.lines, Array(1...(want.count - 1)) + [want.count + 1])
            XCTAssertEqual(got.long, [[want.count, 1_024, tooLong]])
            XCTAssertLessThanOrEqual(cap, BlockLineReader.blockSize)
        }
        // A pipe hands out what the writer has written so far: the reads are short and uneven.
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let data = bytes, sink = ends[1]
        let writer = Thread {
            var at = 0
            while at < data.count {
                let n = min(data.count - at, Int.random(in: 1...(3 * step)))
                let w = data[at..<(at + n)].withUnsafeBytes { write(sink, $0.baseAddress, n) }
                if w <= 0 { break }
                at += w
            }
            close(sink)
        }
        writer.start()
        defer { close(ends[0]) }
        var texts: [String] = []
        try BlockLineReader(fd: ends[0], path: "pipe").forEachLine { _, p, c in
            texts.append(String(decoding: UnsafeBufferPointer(start: p, count: c), as: UTF8.self))
        }
        XCTAssertEqual(texts, want)
    }
}
