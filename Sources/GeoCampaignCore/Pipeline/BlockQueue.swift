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
    /// Byte buffers handed back by the writing thread (`recycle`), emptied, their storage kept.
    private var spare: [[UInt8]] = []

    init(count: Int = 0) {
        self.count = count
        claims = ChunkClaims(count: count)
    }

    /// The next block to compute, or nil when all `count` are taken.
    func take() -> Int? { claims.next() }

    /// Stores a finished block.
    func finish(_ block: Int, bytes: consuming [UInt8], counters: ReplayCounters) {
        condition.lock()
        done[block] = (consume bytes, counters)
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

    /// An empty byte buffer for a block's output: one the writing thread has handed back, with
    /// its storage, when there is one. A block's output is large (L: about 150 KB), and a fresh
    /// buffer grown to that size takes fresh pages each time once the allocator has given the
    /// last one's back to the system.
    func buffer() -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast() ?? []
    }

    /// Takes a block's bytes once written (leaving `bytes` empty), for `buffer()` to give out
    /// again. The caller must hold the only reference, else emptying them would copy.
    func recycle(_ bytes: inout [UInt8]) {
        var kept: [UInt8] = []
        swap(&kept, &bytes)
        kept.removeAll(keepingCapacity: true)
        condition.lock()
        spare.append(kept)
        condition.unlock()
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
