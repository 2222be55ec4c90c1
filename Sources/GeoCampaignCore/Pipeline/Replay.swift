import Dispatch
import Foundation

/// Replays histories through crossing, rules and arbitration, user by user, on several threads.
/// Output is identical whatever the thread count: users are processed in blocks and the blocks'
/// results are handed to the consumer in user order (byte order of the id).
public final class Replay: @unchecked Sendable {
    /// What a replay needs to know beyond the campaigns.
    public struct Options: Sendable {
        /// Fixes after this instant (Unix ms) are not used at all (semantics 3).
        public var untilMs: Int64?
        /// Worker threads, >= 1.
        public var threads: Int
        /// Compute rules and decisions (false for `events`, which needs visits only).
        public var evaluateRules: Bool
        /// Creates options.
        public init(untilMs: Int64? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount, evaluateRules: Bool = true) {
            self.untilMs = untilMs
            self.threads = max(1, threads)
            self.evaluateRules = evaluateRules
        }
    }

    /// The campaigns replayed.
    public let campaigns: CampaignSet
    let options: Options
    let crossing: CampaignCrossing
    let evaluators: [RuleEvaluator]
    let arbiter: Arbiter
    /// Campaigns with a rule that can hold without any visit (`not`, `during`): evaluated for every user.
    let campaignMayFireWithoutVisits: [Bool]

    /// Compiles the campaigns (regions, index, rules) once for all users.
    public init(campaigns: CampaignSet, options: Options) {
        self.campaigns = campaigns
        self.options = options
        // The rules compile on another thread while the regions do.
        let rules = BackgroundTask { campaigns.campaigns.enumerated().map { RuleEvaluator(campaign: $1, campaignIndex: $0) } }
        crossing = CampaignCrossing(campaigns: campaigns.campaigns, settings: campaigns.settings)
        evaluators = rules.value
        arbiter = Arbiter(campaigns: campaigns)
        campaignMayFireWithoutVisits = campaigns.campaigns.map { c in
            c.rules.contains { Self.mayHoldWithoutVisits($0.condition) }
        }
    }

    /// Rule evaluators and an arbiter of its own for one worker thread: the evaluators copied
    /// (`RuleEvaluator(copying:)`, which does not match the regions against the selectors again:
    /// 100,000 regions took tens of milliseconds of the worker's start), the arbiter compiled.
    func workerCopies() -> ([RuleEvaluator], Arbiter) {
        (evaluators.map { RuleEvaluator(copying: $0) }, Arbiter(campaigns: campaigns))
    }

    /// The indices of `ids` in byte order of the ids (UTF-8). Ids are compared by their first
    /// 8 bytes packed in an integer first (most ids differ there), then in full.
    /// - Complexity: O(n log n).
    static func byteOrder(_ ids: [String]) -> [Int] {
        let keys = ids.map { id -> UInt64 in
            var k: UInt64 = 0, n = 0
            for b in id.utf8 {
                if n == 8 { break }
                k = k << 8 | UInt64(b)
                n += 1
            }
            return n == 0 ? 0 : k << UInt64(8 * (8 - n))
        }
        return ids.indices.sorted { a, b in
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            return ids[a].utf8.lexicographicallyPrecedes(ids[b].utf8)
        }
    }

    /// Computes the outcome of one user, or nil when `--until` leaves no fix.
    /// - Complexity: O(f + v log v) for f fixes and v visits: the region index makes the cost per fix independent of the number of regions.
    public func outcome(userId: String, fixes allFixes: [Fix]) -> UserOutcome? {
        outcome(userId: userId, fixes: allFixes, evaluators: evaluators, arbiter: arbiter)
    }

    /// As `outcome(userId:fixes:)` with the given rule evaluators and arbiter (a worker's own
    /// copies: threads sharing one copy contend for its reference counts).
    func outcome(userId: String, fixes allFixes: [Fix], evaluators: [RuleEvaluator], arbiter: Arbiter) -> UserOutcome? {
        allFixes.withUnsafeBufferPointer { outcome(userId: userId, fixes: $0, evaluators: evaluators, arbiter: arbiter) }
    }

    /// As `outcome(userId:fixes:evaluators:arbiter:)`, from fixes in a buffer (valid during the call).
    func outcome(userId: String, fixes allFixes: UnsafeBufferPointer<Fix>, evaluators: [RuleEvaluator], arbiter: Arbiter) -> UserOutcome? {
        var fixes = allFixes
        if let until = options.untilMs, let last = fixes.last, last.time > until {
            var n = fixes.count
            while n > 0 && fixes[n - 1].time > until { n -= 1 }
            fixes = UnsafeBufferPointer(rebasing: fixes[..<n])
        }
        guard let first = fixes.first, let last = fixes.last else { return nil }
        let t0 = first.time, tEnd = last.time
        let visits = crossing.visits(fixes: fixes, tEnd: tEnd)
        var triggers: [Trigger] = []
        if options.evaluateRules {
            for (c, v) in visits.enumerated() where !v.isEmpty || campaignMayFireWithoutVisits[c] {
                triggers += evaluators[c].triggers(visits: v, t0: t0, tEnd: tEnd)
            }
        }
        let decisions = triggers.isEmpty ? [] : arbiter.decide(userId: userId, triggers: triggers)
        return UserOutcome(userId: userId, fixCount: fixes.count, t0: t0, tEnd: tEnd, visits: visits,
                           triggers: triggers, decisions: decisions)
    }


    static func mayHoldWithoutVisits(_ c: Condition) -> Bool {
        switch c {
        case .inside, .visited, .dwelled, .sequence: return false
        case .during, .not: return true
        case .all(let parts): return parts.allSatisfy(mayHoldWithoutVisits)
        case .any(let parts): return parts.contains(where: mayHoldWithoutVisits)
        }
    }

    /// Replays every user of `history` in byte order of the id, in blocks on `options.threads`
    /// threads, handing each block's rendered bytes to `sink` in order.
    /// - Parameters:
    ///   - render: turns one user's outcome into output bytes and adds to the block's counters.
    ///   - sink: receives the blocks' bytes in user order, on the calling thread.
    ///   - progress: called on the calling thread after each block with (users done, users in all, fixes done).
    /// - Returns: the counters of all blocks added up.
    public func run(history: History, render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                    sink: ([UInt8]) throws -> Void,
                    progress: ((Int, Int, Int) -> Void)? = nil) rethrows -> ReplayCounters {
        try run(input: history, render: render, sink: sink, progress: progress)
    }

    /// As `run(history:render:sink:progress:)`, on the users and fixes of `input`.
    func run<Input: ReplayInput>(input history: Input, render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                                 sink: ([UInt8]) throws -> Void,
                                 progress: ((Int, Int, Int) -> Void)? = nil) rethrows -> ReplayCounters {
        let order = Self.byteOrder(history.userIds)
        let starts = Self.blockStarts(users: order.count, threads: options.threads)
        let blocks = BlockQueue(count: starts.count - 1)
        let workers = min(options.threads, max(1, blocks.count))
        let group = DispatchGroup()
        for w in 0..<workers {
            DispatchQueue.global().async(group: group) { [self] in
                let (evaluators, arbiter) = w == 0 ? (self.evaluators, self.arbiter) : self.workerCopies()
                while let b = blocks.take() {
                    var out = blocks.buffer()
                    var local = ReplayCounters()
                    for i in order[starts[b]..<starts[b + 1]] {
                        let o = history.withFixes(of: i) {
                            self.outcome(userId: history.userIds[i], fixes: $0, evaluators: evaluators, arbiter: arbiter)
                        }
                        if let o { out += render(o, &local) }
                    }
                    blocks.finish(b, bytes: consume out, counters: local)
                }
            }
        }
        var total = ReplayCounters()
        for b in 0..<blocks.count {
            var (bytes, counters) = blocks.wait(b)
            total.add(counters)
            try sink(bytes)
            blocks.recycle(&bytes)
            progress?(starts[b + 1], order.count, total.fixes)
        }
        group.wait()
        return total
    }

    /// Where the blocks of a replay of `users` users on `threads` threads start (and, last,
    /// `users`): blocks of 256 users, but the last `threads` x 512 users in blocks of 32, so that
    /// the threads run out of work at about the same time.
    static func blockStarts(users: Int, threads: Int) -> [Int] {
        let tail = threads > 1 ? min(users, threads * 512) : 0
        var starts = Array(stride(from: 0, to: users - tail, by: 256))
        starts += stride(from: users - tail, to: users, by: 32)
        return starts + [users]
    }
}


/// The users and fixes a batch replay reads: a `History` (an array per user) or a `PackedHistory`.
protocol ReplayInput: Sendable {
    /// User ids; the index is the user number.
    var userIds: [String] { get }
    /// Calls `body` with the fixes of user `user`, sorted by time (valid only during the call).
    func withFixes<R>(of user: Int, _ body: (UnsafeBufferPointer<Fix>) throws -> R) rethrows -> R
}

extension History: ReplayInput {
    func withFixes<R>(of user: Int, _ body: (UnsafeBufferPointer<Fix>) throws -> R) rethrows -> R {
        try fixes[user].withUnsafeBufferPointer(body)
    }
}

extension PackedHistory: ReplayInput {}
