import XCTest
@testable import GeoCampaignCore

final class BlockQueueTests: XCTestCase {
    /// Blocks finished in any order come back in block order, and a buffer handed back after
    /// writing is given out again empty, with its storage: a replay's blocks reuse a few large
    /// buffers instead of growing a fresh one each (fresh pages on a large run).
    func testBlocksComeBackInOrderAndBuffersAreReused() {
        let queue = BlockQueue(count: 3)
        XCTAssertEqual([queue.take(), queue.take(), queue.take(), queue.take()], [0, 1, 2, nil])
        var first = queue.buffer()
        XCTAssertTrue(first.isEmpty)
        first.append(contentsOf: [UInt8](repeating: 7, count: 100_000))
        let storage = first.withUnsafeBufferPointer { $0.baseAddress }
        queue.finish(2, bytes: [2], counters: ReplayCounters())
        queue.finish(0, bytes: first, counters: ReplayCounters())
        first = []
        queue.finish(1, bytes: [1], counters: ReplayCounters())
        var (bytes, _) = queue.wait(0)
        XCTAssertEqual(bytes.count, 100_000)
        queue.recycle(&bytes)
        XCTAssertTrue(bytes.isEmpty)
        XCTAssertEqual(queue.wait(1).0, [1])
        XCTAssertEqual(queue.wait(2).0, [2])
        let again = queue.buffer()
        XCTAssertTrue(again.isEmpty)
        XCTAssertGreaterThanOrEqual(again.capacity, 100_000)
        XCTAssertEqual(again.withUnsafeBufferPointer { $0.baseAddress }, storage)
        XCTAssertEqual(queue.buffer().capacity, 0)
    }
}
