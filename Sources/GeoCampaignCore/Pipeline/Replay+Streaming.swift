import Dispatch
import Foundation

extension Replay {
    /// Replays users as a producer hands them over (input grouped by user, `--sorted`): blocks of
    /// users are computed on `options.threads` worker threads while the producer reads on, and
    /// written in input order. At most a few blocks are in flight, so memory stays bounded by the
    /// largest user and the block size, not by the input.
    /// - Parameters:
    ///   - produce: called once on the calling thread; it calls its argument with each user's id and
    ///     time-ordered fixes, in input order.
    ///   - render: turns one user's outcome into output bytes and adds to the block's counters.
    ///   - sink: receives the blocks' bytes in input order, on the calling thread.
    /// - Returns: the counters of all blocks added up.
    /// - Complexity: O(total fixes) time; memory O(largest user + block size x blocks in flight).
    public func runStreaming(produce: ((String, [Fix]) throws -> Void) throws -> Void,
                             render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                             sink: @escaping ([UInt8]) throws -> Void) throws -> ReplayCounters {
        let results = BlockQueue()
        let inFlight = DispatchSemaphore(value: options.threads + 1)
        let workers = DispatchQueue(label: "geocampaign.replay", attributes: .concurrent)
        let group = DispatchGroup()
        var total = ReplayCounters()
        var written = 0
        var submitted = 0
        var block: [(String, [Fix])] = []
        var blockFixes = 0

        func drain(waitingFor last: Int) throws {
            while written < last {
                let (bytes, counters) = results.wait(written)
                total.add(counters)
                try sink(bytes)
                inFlight.signal()
                written += 1
            }
        }
        func submit() throws {
            guard !block.isEmpty else { return }
            let users = block, number = submitted
            block = []
            blockFixes = 0
            submitted += 1
            while inFlight.wait(timeout: .now()) == .timedOut {
                try drain(waitingFor: written + 1)
            }
            workers.async(group: group) { [self] in
                var out: [UInt8] = []
                var local = ReplayCounters()
                for (id, fixes) in users {
                    if let o = self.outcome(userId: id, fixes: fixes) { out += render(o, &local) }
                }
                results.finish(number, bytes: out, counters: local)
            }
            try drain(waitingFor: results.firstUnfinished(from: written))
        }
        do {
            try produce { id, fixes in
                block.append((id, fixes))
                blockFixes += fixes.count
                if block.count >= 128 || blockFixes >= 16_384 { try submit() }
            }
            try submit()
            try drain(waitingFor: submitted)
        } catch {
            // Blocks still in flight hold the semaphore: give it back once they are done, since
            // libdispatch traps when a semaphore is freed below its initial value.
            group.wait()
            for _ in written..<submitted { inFlight.signal() }
            throw error
        }
        group.wait()
        return total
    }
}
