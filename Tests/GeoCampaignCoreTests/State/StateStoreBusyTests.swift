import Foundation
import XCTest
@testable import GeoCampaignCore

/// A stream commits while other processes may read the state (`--state-info`): with a busy
/// timeout its commit waits for a reader to finish; without one it fails (the stream died).
final class StateStoreBusyTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-busy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A commit of `writer` while another connection holds a read transaction for 200 ms.
    private func commitDuringARead(writerTimeoutMs: Int) throws -> Bool {
        let path = dir.appendingPathComponent("state-\(writerTimeoutMs).db").path
        let writer = try StateStore(path: path, create: true)
        try writer.setBusyTimeout(ms: writerTimeoutMs)
        let reader = try StateStore(path: path, create: false, busyTimeoutMs: 2000)
        try reader.db.exec("BEGIN DEFERRED; SELECT count(*) FROM meta;")
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            try? reader.db.exec("COMMIT")
            done.signal()
        }
        defer { done.wait() }
        do {
            try writer.begin()
            try writer.setMeta("k", "v")
            try writer.commit()
            return true
        } catch {
            writer.rollback()
            return false
        }
    }

    func testACommitWaitsForAReaderWithABusyTimeout() throws {
        XCTAssertTrue(try commitDuringARead(writerTimeoutMs: 5000))
        // Negative control: without the timeout the same commit fails.
        XCTAssertFalse(try commitDuringARead(writerTimeoutMs: 0))
    }

    func testAnEmptyFileIsNotMadeAStateByAReader() throws {
        let path = dir.appendingPathComponent("empty.db").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertThrowsError(try StateStore(path: path, create: false))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, 0, "left as it was")
        _ = try StateStore(path: path, create: true)
        XCTAssertNotNil(try StateStore(path: path, create: false))
    }
}
