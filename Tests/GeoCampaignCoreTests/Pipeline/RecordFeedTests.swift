import Foundation
import XCTest
@testable import GeoCampaignCore

/// The stateful run's feed of stored records (`RecordFeed`): blocks read in order on a thread of
/// its own; a failed read gives up the blocks after it, and nothing waits for ever.
final class RecordFeedTests: XCTestCase {
    private struct Broken: Error {}

    func testBlocksComeInTheReplaysOrder() throws {
        let ids = ["c", "a", "b", "d", "e"]
        let order = [1, 2, 0, 3, 4]
        let feed = RecordFeed(ids: ids, order: order, starts: [0, 2, 3, 5]) { block in block.map { Array($0.utf8) } }
        XCTAssertTrue(feed.wasRead(2))
        XCTAssertEqual(feed.wait(0), [[97], [98]])
        XCTAssertEqual(feed.wait(1), [[99]])
        XCTAssertEqual(feed.wait(2), [[100], [101]])
        XCTAssertNoThrow(try feed.finish())
    }

    func testAFailedReadGivesUpTheBlocksAfterIt() {
        let ids = (0..<6).map { "u\($0)" }
        let feed = RecordFeed<[UInt8]?>(ids: ids, order: Array(0..<6), starts: [0, 2, 4, 6]) { block in
            if block.contains("u2") { throw Broken() }
            return block.map { _ in nil }
        }
        XCTAssertTrue(feed.wasRead(0))
        XCTAssertFalse(feed.wasRead(1))
        XCTAssertFalse(feed.wasRead(2))
        XCTAssertEqual(feed.wait(0)?.count, 2)
        XCTAssertNil(feed.wait(1))
        XCTAssertThrowsError(try feed.finish()) { XCTAssertTrue($0 is Broken) }
    }

    func testStoppingEndsTheWaits() throws {
        let release = DispatchSemaphore(value: 0)
        let feed = RecordFeed<[UInt8]?>(ids: ["a", "b"], order: [0, 1], starts: [0, 1, 2]) { block in
            if block == ["b"] { release.wait() }
            return [nil]
        }
        XCTAssertTrue(feed.wasRead(0))
        feed.stop()
        XCTAssertFalse(feed.wasRead(1))
        XCTAssertNil(feed.wait(1))
        release.signal()
        XCTAssertNoThrow(try feed.finish())
    }
}
