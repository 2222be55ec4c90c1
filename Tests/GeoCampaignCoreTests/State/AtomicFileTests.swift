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
}
