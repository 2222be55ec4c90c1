import XCTest
@testable import GeoCampaignCore

/// Large imports are mapped (`MappedFile`): a file cut short or written while mapped is an error
/// of the load, never a crash (SIGBUS) or regions taken from a mix of two files.
final class MappedFileTests: XCTestCase {
    private func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "geocampaign-mapped-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// A file of `count` bytes, byte k = 1 + k % 251 (never zero), its times set in the past
    /// (so that a write now changes them, however coarse the file system's clock).
    private func patternFile(_ path: String, count: Int) throws {
        let bytes = (0..<count).map { UInt8(1 + $0 % 251) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var times = [timeval(tv_sec: 946_684_800, tv_usec: 0), timeval(tv_sec: 946_684_800, tv_usec: 0)]
        XCTAssertEqual(utimes(path, &times), 0)
    }

    private func map(_ path: String) throws -> MappedFile {
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var info = stat()
        XCTAssertEqual(fstat(fd, &info), 0)
        guard let m = MappedFile(fd: fd, status: info) else {
            close(fd)
            throw XCTSkip("the file system cannot map files")
        }
        return m
    }

    func testMappedBytesAreTheFileAndUnchanged() throws {
        let path = try temporaryDirectory() + "/f.bin"
        try patternFile(path, count: 5_000_001)
        let m = try map(path)
        XCTAssertEqual(m.bytes.count, 5_000_001)
        XCTAssertEqual(Data(buffer: m.bytes), try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertFalse(m.changed)
    }

    /// The file cut short while mapped: reading every byte neither crashes nor hangs, the bytes
    /// past the new end read as zeros, and the mapping says the file changed.
    func testFileCutShortWhileMappedReadsZerosAndIsChanged() throws {
        let path = try temporaryDirectory() + "/f.bin"
        let count = 5_000_000, kept = 1_000_003
        try patternFile(path, count: count)
        let m = try map(path)
        XCTAssertEqual(truncate(path, off_t(kept)), 0)
        var before = 0, after = 0
        for k in 0..<count {
            if k < kept { before += Int(m.bytes[k]) } else { after += Int(m.bytes[k]) }
        }
        XCTAssertEqual(before, (0..<kept).reduce(0) { $0 + 1 + $1 % 251 })
        XCTAssertEqual(after, 0)
        XCTAssertTrue(m.changed)
        // Read again after the pages were replaced: still zeros, still changed.
        XCTAssertEqual(m.bytes[count - 1], 0)
        XCTAssertTrue(m.changed)
    }

    /// Written in place (same size): the mapping says the file changed; a second mapping of the
    /// file as it now is does not.
    func testFileWrittenInPlaceIsChanged() throws {
        let path = try temporaryDirectory() + "/f.bin"
        try patternFile(path, count: 4_200_000)
        let m = try map(path)
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try h.seek(toOffset: 2_000_000)
        try h.write(contentsOf: Data([0x41, 0x42]))
        try h.close()
        XCTAssertTrue(m.changed)
        XCTAssertEqual(m.bytes[2_000_000], 0x41, "a mapping shows the file as it is now")
        let again = try map(path)
        XCTAssertFalse(again.changed)
    }

    /// Replaced by a rename, deleted, or given other permissions while mapped: the mapping still
    /// shows the file's content, which did not change (not `changed`; the inode's change time did).
    func testFileReplacedOrDeletedIsNotChanged() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/f.bin", other = dir + "/g.bin"
        try patternFile(path, count: 4_200_000)
        let m = try map(path)
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertFalse(m.changed)
        XCTAssertTrue(FileManager.default.createFile(atPath: other, contents: Data(repeating: 0x41, count: 4_200_000)))
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertFalse(m.changed)
        XCTAssertEqual(m.bytes[4_199_999], UInt8(1 + 4_199_999 % 251))
        XCTAssertEqual(unlink(path), 0)
        XCTAssertFalse(m.changed)
        XCTAssertEqual(m.bytes[0], 1)
    }

    /// A slot is given back with its mapping: many more mappings than slots, one after another.
    func testSlotsAreReused() throws {
        let path = try temporaryDirectory() + "/f.bin"
        try patternFile(path, count: 4096 * 3)
        for _ in 0..<(3 * MappedFile.Registry.slots) {
            let m = try map(path)
            XCTAssertEqual(m.bytes[4096 * 3 - 1], UInt8(1 + (4096 * 3 - 1) % 251))
        }
    }

    /// A large import cut short after it was mapped, before it is parsed: the import fails with
    /// the message that it changed while read (not a crash, not a JSON error at a place of zeros);
    /// the same file left alone loads (the control).
    func testImportCutShortWhileParsedFails() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/big.geojson"
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        var i = 0
        while text.utf8.count < GeoJSONCache.parallelReadFrom + 200_000 {
            text += (i == 0 ? "" : ",\n") + #"{"type":"Feature","id":"f\#(i)","properties":{"name":"caf\u00e9 \#(i)"},"geometry":{"type":"Polygon","coordinates":[[[2.0,48.0],[2.001,48.0],[2.001,48.001],[2.0,48.0]]]}}"#
            i += 1
        }
        text += "\n]}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        guard GeoJSONCache.mapLargeFiles else { throw XCTSkip("GEOCAMPAIGN_READ_IMPORTS=1: imports are read, not mapped") }

        let control = try GeoJSONCache().file(at: path).get()
        XCTAssertEqual(control.root["features"]?.array?.count, i)
        XCTAssertEqual(control.root["features"]?.array?.last?["properties"]?["name"]?.string, "café \(i - 1)")

        let result = GeoJSONCache().file(at: path, whenRead: { source in
            XCTAssertEqual(source.byteCount, text.utf8.count)
            XCTAssertEqual(truncate(path, off_t(text.utf8.count / 3)), 0)
        })
        switch result {
        case .success: XCTFail("a file cut short while parsed was loaded")
        case .failure(let e): XCTAssertEqual(e.message, GeoJSONCache.changedWhileRead.message)
        }
    }

    /// A string's escapes decoded from bytes that changed after the parse (a mapped file written
    /// in place): what is no longer an escape becomes U+FFFD, with no trap.
    func testEscapesOfChangedBytesDoNotTrap() throws {
        let text = Array(#"{"a":"x\u00e9\n\ud83d\ude00y","b":"\\"}"#.utf8)
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = memory.initialize(from: text)
        let bytes = FileBytes(adopting: memory, count: text.count)
        let root = JSONNode(document: try JSONParser(bytes: bytes).document(), index: 0)
        XCTAssertEqual(root["a"]?.string, "x\u{e9}\n\u{1F600}y")
        XCTAssertEqual(root["b"]?.string, "\\")
        // "\u00e9" becomes "\u00g9", the low surrogate's hex digits break ("\ude00" becomes
        // "\udez0"), and the escape "\\" becomes "A\" (a backslash at the end).
        let body = Array(#"{"a":"x\u00"#.utf8).count
        memory[body] = 0x67
        let low = Array(#"{"a":"x\u00e9\n\ud83d\ude"#.utf8).count
        memory[low] = 0x7A
        memory[text.count - 4] = 0x41
        XCTAssertEqual(root["a"]?.string, "x\u{FFFD}00g9\n\u{FFFD}\u{FFFD}dez0y")
        XCTAssertEqual(root["b"]?.string, "A\u{FFFD}")
    }
}
