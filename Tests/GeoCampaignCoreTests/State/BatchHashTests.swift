import Foundation
import XCTest
@testable import GeoCampaignCore

/// A state keeps its latest batch's hash to recognise a repeat (state.md 1.4): a hash must not
/// change between builds of the same version, and a state's hash of an older version must still
/// be recognised (`BatchHash.isSameBatch`).
final class BatchHashTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func random(_ n: Int, seed: UInt64) -> [UInt8] {
        var g = SplitMix(seed: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    /// Version 1's values, written by the build that read the files in 1 MiB pieces (main at
    /// 7d13f96) and unchanged since; version 2's, by the build that introduced it.
    func testHashesAreThoseOfEarlierBuilds() throws {
        let b1 = TestData.path("state-1/batches/batch-1.jsonl"), b2 = TestData.path("state-1/batches/batch-2.jsonl")
        // batch-1 is 244,660 bytes: its last word is zero-padded, its last stripe partial.
        let size = try FileManager.default.attributesOfItem(atPath: b1)[.size] as? Int ?? 0
        XCTAssertNotEqual(size % 8, 0)
        XCTAssertEqual(try BatchHash.version1(paths: [b1]), "45635c5589156ddba222a678332a547a")
        XCTAssertEqual(try BatchHash.version1(paths: [b1, b2]), "7b832bc627e345c4dc4fbe2214421cf5")
        let empty = try file("empty", [])
        XCTAssertEqual(try BatchHash.version1(paths: [empty]), "2e72b4654e79d8d16df1868f6c79f510")

        XCTAssertEqual(try BatchHash.of(paths: [b1]), "v2:25b49177ab814a3036e85eadacfb9b17")
        XCTAssertEqual(try BatchHash.of(paths: [b1, b2]), "v2:8e3d31fc0be577d7c36e70342a165327")
        XCTAssertEqual(try BatchHash.of(paths: [empty]), "v2:16b6d18cce660809354a975a85e56736")
    }

    /// Every byte, the files' order and where one file ends count.
    func testEveryByteAndTheFilesBoundariesCount() throws {
        let bytes = random(1000, seed: 7)
        let whole = try BatchHash.of(paths: [try file("whole", bytes)])
        var seen: Set<String> = [whole]
        for at in [0, 1, 7, 8, 63, 64, 500, 959, 960, 999] {
            var b = bytes
            b[at] ^= 0x01
            XCTAssertTrue(seen.insert(try BatchHash.of(paths: [try file("flip-\(at)", b)])).inserted, "byte \(at)")
        }
        let a = try file("a", Array(bytes[..<640])), b = try file("b", Array(bytes[640...]))
        XCTAssertTrue(seen.insert(try BatchHash.of(paths: [a, b])).inserted, "split in two files")
        XCTAssertTrue(seen.insert(try BatchHash.of(paths: [b, a])).inserted, "the other order")
        XCTAssertTrue(seen.insert(try BatchHash.of(paths: [try file("longer", bytes + [0])])).inserted, "a zero byte more")
        XCTAssertTrue(seen.insert(try BatchHash.of(paths: [try file("shorter", Array(bytes.dropLast()))])).inserted, "a byte less")
    }

    /// A pipe, read in pieces of any size, and a regular file, read in pieces of 256 KiB, hash
    /// as their bytes held in memory (`add`, as a campaign's bytes are hashed and as builds
    /// before 2026-12-07 hashed a regular file, mapped); the values of earlier builds are
    /// checked above.
    func testAPipeAndAFileHashAsTheirBytesInMemory() throws {
        for n in [0, 1, 63, 64, 65, 4096 + 3, (256 << 10) - 1, 256 << 10, (256 << 10) + 1, (1 << 20) + 77, 3 * (1 << 20) + 64] {
            let bytes = random(n, seed: UInt64(n))
            let path = try file("f\(n)", bytes)
            var fds: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&fds), 0)
            let (readEnd, writeEnd) = (fds[0], fds[1])
            let writer = Thread {
                var at = 0, piece = 1
                while at < bytes.count {
                    let k = min(piece, bytes.count - at)
                    bytes.withUnsafeBytes { _ = write(writeEnd, $0.baseAddress! + at, k) }
                    at += k
                    piece = piece * 3 % 100_003 + 1
                }
                close(writeEnd)
            }
            writer.start()
            var h = BatchHash.start
            try BatchHash.Lanes.readAll(readEnd, path: "pipe", into: &h)
            close(readEnd)
            XCTAssertEqual(BatchHash.text(h), try BatchHash.of(paths: [path]), "\(n) bytes")
            var m = BatchHash.start
            bytes.withUnsafeBytes { BatchHash.add($0, to: &m) }
            XCTAssertEqual(BatchHash.text(m), BatchHash.text(h), "\(n) bytes in memory")
        }
    }

    /// Version 1 read from a FIFO in short pieces of any size hashes as the bytes held whole
    /// (`Version1.add`, as builds before version 2 hashed a mapped file): a piece's partial
    /// word waits for the next piece instead of being padded. (Padded per piece, as the read
    /// path did when regular files were mapped, every size here but 0 and 64 differs.)
    func testVersion1ReadInPiecesHashesAsTheBytesHeldWhole() throws {
        for n in [0, 1, 7, 63, 64, 65, 4096 + 3, (1 << 20) + 77] {
            let bytes = random(n, seed: UInt64(n) &+ 99)
            let fifo = dir.appendingPathComponent("fifo\(n)").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let writer = Thread {
                let fd = open(fifo, O_WRONLY)
                var at = 0, piece = 5
                while at < bytes.count {
                    let k = min(piece, bytes.count - at)
                    bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress! + at, k) }
                    at += k
                    piece = piece * 7 % 50_021 + 1
                }
                close(fd)
            }
            writer.start()
            let got = try BatchHash.version1(paths: [fifo])
            var h = BatchHash.start
            bytes.withUnsafeBytes { BatchHash.Version1.add($0, to: &h) }
            XCTAssertEqual(got, CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1), "\(n) bytes")
        }
    }

    /// A stored hash of version 1 is recognised by computing version 1; anything else must be
    /// equal to this build's hash.
    func testAStoredHashOfEitherVersionIsRecognised() throws {
        let b1 = TestData.path("state-1/batches/batch-1.jsonl"), b2 = TestData.path("state-1/batches/batch-2.jsonl")
        let v2 = try BatchHash.of(paths: [b1]), v1 = try BatchHash.version1(paths: [b1])
        XCTAssertNotEqual(v1, v2, "the versions differ: a plain comparison would not recognise an old state's batch")
        XCTAssertTrue(BatchHash.isVersion1(v1))
        XCTAssertFalse(BatchHash.isVersion1(v2))
        XCTAssertTrue(try BatchHash.isSameBatch(stored: v2, hash: v2, paths: [b1]))
        XCTAssertTrue(try BatchHash.isSameBatch(stored: v1, hash: v2, paths: [b1]))
        // Negative controls: another batch, of either version, is not the same.
        let other = try BatchHash.of(paths: [b2])
        XCTAssertTrue(try BatchHash.isSameBatch(stored: try BatchHash.version1(paths: [b2]), hash: other, paths: [b2]))
        XCTAssertFalse(try BatchHash.isSameBatch(stored: v1, hash: other, paths: [b2]))
        XCTAssertFalse(try BatchHash.isSameBatch(stored: v2, hash: other, paths: [b2]))
        XCTAssertFalse(try BatchHash.isSameBatch(stored: "x" + v1.dropFirst(), hash: v2, paths: [b1]), "not of either form")
    }
}
