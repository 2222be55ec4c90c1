import Foundation
import XCTest
@testable import GeoCampaignCore

/// A stream commits while other processes may read the state (`--state-info`). The state is in
/// WAL mode, where a reader never blocks a commit; in a rollback journal (the mode of states
/// before WAL) the commit had to wait for the reader, and failed without a busy timeout.
final class StateStoreBusyTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-busy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A commit of `writer` while another connection holds a read transaction for 200 ms;
    /// `journal` puts the state in another journal mode first (nil: as a run leaves it, WAL).
    private func commitDuringARead(writerTimeoutMs: Int, journal: String? = nil) throws -> Bool {
        let path = dir.appendingPathComponent("state-\(writerTimeoutMs)-\(journal ?? "wal").db").path
        let writer = try StateStore(path: path, create: true)
        if let journal { try writer.db.exec("PRAGMA journal_mode = \(journal)") }
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

    func testACommitDoesNotWaitForAReaderInWALMode() throws {
        XCTAssertTrue(try commitDuringARead(writerTimeoutMs: 0))
        // Negative control: in a rollback journal the same commit fails without a busy
        // timeout, and waits for the reader with one.
        XCTAssertFalse(try commitDuringARead(writerTimeoutMs: 0, journal: "PERSIST"))
        XCTAssertTrue(try commitDuringARead(writerTimeoutMs: 5000, journal: "PERSIST"))
    }

    /// A run's state is in WAL mode, and a reader leaves it so.
    func testARunPutsTheStateInWALMode() throws {
        let path = dir.appendingPathComponent("mode.db").path
        func mode(_ s: StateStore) throws -> String {
            let st = try s.db.prepare("PRAGMA journal_mode")
            _ = try st.step()
            return st.text(0)
        }
        XCTAssertEqual(try mode(try StateStore(path: path, create: true)), "wal")
        XCTAssertEqual(try mode(try StateStore(path: path, create: false)), "wal")
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
