import XCTest
@testable import GeoCampaignCore

/// Two paths to one file are one file (issue 10 item 9); devices and missing files never clash.
final class FileIdentityTests: XCTestCase {
    func testClashesAreFoundByInodeNotBySpelling() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-fid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.jsonl").path, b = dir.appendingPathComponent("b.jsonl").path
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: a))
        try Data("y\n".utf8).write(to: URL(fileURLWithPath: b))
        let link = dir.appendingPathComponent("link").path, hard = dir.appendingPathComponent("hard").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a)
        try FileManager.default.linkItem(atPath: a, toPath: hard)
        let dotted = dir.path + "/./a.jsonl"

        for same in [a, dotted, link, hard] {
            let clash = FileIdentity.firstClash(inputs: [("--history", a)], outputs: [("--output", same)])
            XCTAssertEqual(clash?.written.path, same)
            XCTAssertEqual(clash?.other.role, "--history")
        }
        // Negative controls: another file, a file not yet there, devices and stdin never clash.
        XCTAssertNil(FileIdentity.firstClash(inputs: [("--history", a)], outputs: [("--output", b)]))
        XCTAssertNil(FileIdentity.firstClash(inputs: [("--history", a)], outputs: [("--output", dir.path + "/new.jsonl")]))
        XCTAssertNil(FileIdentity.firstClash(inputs: [("--history", "-")], outputs: [("--output", "/dev/null"), ("--rejects", "/dev/null")]))
        // The two outputs against each other.
        let both = FileIdentity.firstClash(inputs: [("--history", a)], outputs: [("--output", b), ("--rejects", b)])
        XCTAssertEqual(both?.written.role, "--rejects")
        XCTAssertEqual(both?.other.role, "--output")
    }
}
