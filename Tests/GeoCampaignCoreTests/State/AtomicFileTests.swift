import Foundation
import XCTest
@testable import GeoCampaignCore

/// The one file writer: nothing reaches the target before `commit`; a discarded or dropped
/// writer leaves the old file and no temporary file.
final class AtomicFileTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    func testTheTargetChangesOnlyAtCommit() throws {
        let path = dir.appendingPathComponent("out.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        let f = try AtomicFile(path: path)
        try f.write(Array("new\n".utf8))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n", "not before commit")
        XCTAssertEqual(try files().count, 2, "the temporary file lies beside the target")
        try f.commit()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
        XCTAssertEqual(try files(), ["out.txt"])
    }

    func testDiscardAndDropLeaveTheOldFile() throws {
        let path = dir.appendingPathComponent("out.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        let f = try AtomicFile(path: path)
        try f.write(Array("new\n".utf8))
        f.discard()
        do {
            let g = try AtomicFile(path: path)
            try g.write(Array("newer\n".utf8))
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
        XCTAssertEqual(try files(), ["out.txt"])
    }

    func testAnUnwritableFolderIsAnErrorNamingTheTarget() {
        XCTAssertThrowsError(try AtomicFile(path: dir.appendingPathComponent("no/such/out.txt").path)) { e in
            XCTAssertTrue((e as? RunError)?.message.contains("no/such/out.txt: cannot be written") ?? false, "\(e)")
        }
    }

    /// A symbolic link is followed: the file it names is replaced, the link stays a link.
    func testASymbolicLinkKeepsPointingAtTheNewFile() throws {
        let real = dir.appendingPathComponent("real.txt").path, link = dir.appendingPathComponent("link.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.txt")
        let f = try AtomicFile(path: link)
        try f.write(Array("new\n".utf8))
        try f.commit()
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real.txt")
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), "new\n")
        XCTAssertEqual(try files(), ["link.txt", "real.txt"])
    }

    /// `/dev/stdout` or `/proc/self/fd/N` on a regular file is the open descriptor: written in
    /// place (a rename would replace the `/dev/stdout` link itself, or miss the descriptor's file).
    func testAnOpenDescriptorPathIsWrittenInPlace() throws {
        let path = dir.appendingPathComponent("redirected.txt").path
        try Data().write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let f = try AtomicFile(path: "/proc/self/fd/\(fd)")
        XCTAssertNil(f.temporaryPath)
        try f.write(Array("through the descriptor\n".utf8))
        try f.commit()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "through the descriptor\n")
        XCTAssertEqual(try files(), ["redirected.txt"])
    }
}
