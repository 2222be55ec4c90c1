import Foundation

/// Blocks of users computed on worker threads and handed back in order: workers `finish` blocks
/// in any order, the writing thread `wait`s for them one by one. With a known `count` (a whole
/// history) `take` also hands out the block numbers; a stream numbers its blocks itself.
final class BlockQueue: @unchecked Sendable {
    /// The number of blocks, when known in advance.
    let count: Int
    private let condition = NSCondition()
    private let claims: ChunkClaims
    private var done: [Int: ([UInt8], ReplayCounters)] = [:]

    init(count: Int = 0) {
        self.count = count
        claims = ChunkClaims(count: count)
    }

    /// The next block to compute, or nil when all `count` are taken.
    func take() -> Int? { claims.next() }

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
        return done.removeValue(forKey: block) ?? ([], ReplayCounters())
    }

    /// The first block number at or after `first` that is not finished yet.
    func firstUnfinished(from first: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        var n = first
        while done[n] != nil { n += 1 }
        return n
    }
}
