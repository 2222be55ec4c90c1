import Foundation

/// Finished blocks of a streaming replay, keyed by block number.
final class StreamResults: @unchecked Sendable {
    private let condition = NSCondition()
    private var done: [Int: ([UInt8], ReplayCounters)] = [:]

    func finish(_ block: Int, bytes: [UInt8], counters: ReplayCounters) {
        condition.lock()
        done[block] = (bytes, counters)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for `block` and removes its result.
    func wait(_ block: Int) -> ([UInt8], ReplayCounters) {
        condition.lock()
        defer { condition.unlock() }
        while done[block] == nil { condition.wait() }
        return done.removeValue(forKey: block) ?? ([], ReplayCounters())
    }

    /// The first block number at or after `first` that is not finished yet.
    func readyPrefix(from first: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        var n = first
        while done[n] != nil { n += 1 }
        return n
    }
}
