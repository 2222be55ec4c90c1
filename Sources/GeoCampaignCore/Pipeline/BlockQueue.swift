import Foundation

/// Hands out block numbers to worker threads and gives the finished blocks back in order.
final class BlockQueue: @unchecked Sendable {
    let count: Int
    private let condition = NSCondition()
    private var next = 0
    private var done: [([UInt8], ReplayCounters)?]

    init(count: Int) {
        self.count = count
        done = Array(repeating: nil, count: count)
    }

    /// The next block to compute, or nil when all are taken.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    /// Stores a finished block.
    func finish(_ block: Int, bytes: [UInt8], counters: ReplayCounters) {
        condition.lock()
        done[block] = (bytes, counters)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for block `block` and takes its result (freeing it).
    func wait(_ block: Int) -> ([UInt8], ReplayCounters) {
        condition.lock()
        defer { condition.unlock() }
        while done[block] == nil { condition.wait() }
        let r = done[block] ?? ([], ReplayCounters())
        done[block] = ([], ReplayCounters())
        return r
    }
}
