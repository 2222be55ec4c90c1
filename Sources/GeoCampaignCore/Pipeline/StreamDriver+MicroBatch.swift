import Foundation

extension StreamDriver {
    /// The users a stream holds in memory and how it takes a micro-batch: the lines already
    /// read, decided late or not one by one in read order (state.md 2: each line a batch of its
    /// own), then each touched user resumed once with all its accepted fixes of the micro-batch.
    /// By the equivalence of stateful runs (state.md 1.1) this prints what the per-line
    /// definition prints: the same decisions, each user's in time order.
    final class Session {
        let replay: Replay
        let context: Replay.ResumeContext
        let render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]
        let reader: StateStore.UserReader
        let campaignOfSlot: [Int: Int]
        let statePath: String
        let path: String
        let parser: JSONLineParser
        /// Resume threads (users are independent).
        let threads: Int
        /// Per extra thread: its own evaluators and arbiter.
        private let copies: [([RuleEvaluator], Arbiter)]

        /// Users in memory.
        var users: [String: UserState] = [:]
        /// Users changed since the last commit.
        var dirty = Set<String>()
        /// The latest accepted fix time over all users (the stream's clock, for eviction).
        var streamTime: Int64 = .min
        var stats = HistoryStats()
        var counters = ReplayCounters()
        /// Users written and dropped as idle so far in this run.
        var evicted = 0
        /// Users in memory that have had an accepted fix since they entered it.
        private var resumed = Set<String>()
        /// Users counted for the summary: once per stay in memory with an accepted fix (a user
        /// dropped as idle and loaded back by a later fix is counted again).
        var usersCounted = 0
        /// Tests (negative controls): applied to every state read from the database.
        var onLoad: ((inout UserState) -> Void)?
        /// Lines taken so far (the committed count at start plus this run's).
        var lines: Int

        init(replay: Replay, render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8], reader: StateStore.UserReader,
             campaignOfSlot: [Int: Int], statePath: String, path: String, parser: JSONLineParser, lines: Int, threads: Int) {
            self.replay = replay
            context = replay.resumeContext()
            self.render = render
            self.reader = reader
            self.campaignOfSlot = campaignOfSlot
            self.statePath = statePath
            self.path = path
            self.parser = parser
            self.lines = lines
            self.threads = max(1, threads)
            copies = (0..<max(0, threads - 1)).map { _ in replay.workerCopies() }
        }

        /// A user's state: in memory, else from the database (an evicted or earlier user), else nil.
        private func load(_ user: String) throws -> UserState? {
            if let s = users[user] { return s }
            guard let record = try reader.record(user) else { return nil }
            guard var s = UserState.decoded(record, campaignOfSlot: campaignOfSlot, campaignCount: replay.campaigns.campaigns.count) else {
                throw RunError.data("\(statePath): the record of user '\(user)' is damaged; the state cannot be continued")
            }
            onLoad?(&s)
            users[user] = s
            return s
        }

        /// Takes the complete lines `buffer[ranges]` (terminators excluded) as one micro-batch:
        /// rejects (late ones included) go to `rejects` in line order, decisions settled by the
        /// micro-batch to `output`, each user's in time order, users in order of first line.
        func take(_ buffer: UnsafeBufferPointer<UInt8>, _ ranges: ArraySlice<Range<Int>>, output: StreamFile, rejects: StreamFile?) throws {
            var touched: [String] = []
            var slot: [String: Int] = [:]
            var batches: [[Fix]] = []
            var latest: [Int64?] = []
            let base = buffer.baseAddress!
            for r in ranges {
                lines += 1
                stats.linesRead += 1
                var n = r.count
                if n > 0 && base[r.lowerBound + n - 1] == 0x0D { n -= 1 }
                if n == 0 { stats.blankLines += 1; continue }
                let p = base + r.lowerBound
                switch parser.parse(p, n) {
                case .blank:
                    stats.blankLines += 1
                case .rejected:
                    stats.rejectCounts[parser.reason.index] += 1
                    try rejects?.append(RejectsWriter.line(for: RejectedLine(path: path, line: lines, reason: parser.reason, detail: parser.detail,
                                                                              text: Array(UnsafeBufferPointer(start: p, count: n)))))
                case .accepted:
                    let user = String(decoding: UnsafeBufferPointer(start: parser.userPtr, count: parser.userLen), as: UTF8.self)
                    let fix = parser.fix
                    let k: Int
                    if let known = slot[user] {
                        k = known
                    } else {
                        k = touched.count
                        slot[user] = k
                        touched.append(user)
                        batches.append([])
                        latest.append(try load(user)?.tEnd)
                    }
                    if let last = latest[k], fix.time < last {
                        stats.rejectCounts[RejectReason.late.index] += 1
                        try rejects?.append(RejectsWriter.line(for: RejectedLine(path: path, line: lines, reason: .late,
                            detail: "\(Timestamp.string(fix.time)) is earlier than this user's latest fix, \(Timestamp.string(last))",
                            text: Array(UnsafeBufferPointer(start: p, count: n)))))
                        continue
                    }
                    stats.fixesAccepted += 1
                    latest[k] = fix.time
                    batches[k].append(fix)
                    if fix.time > streamTime { streamTime = fix.time }
                }
            }
            let live = touched.indices.filter { !batches[$0].isEmpty }
            guard !live.isEmpty else { return }
            let states = live.map { users[touched[$0]] }
            var results = [(UserState, [UInt8], ReplayCounters)?](repeating: nil, count: live.count)
            let workers = live.count >= 64 ? threads : 1
            results.withUnsafeMutableBufferPointer { out in
                let slots = UnsafeSendable(out)
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    let (evaluators, arbiter) = w == 0 ? (replay.evaluators, replay.arbiter) : copies[w - 1]
                    var j = w
                    while j < live.count {
                        let i = live[j]
                        if let r = replay.resume(userId: touched[i], state: states[j], batch: batches[i], final: false, context: context,
                                                 evaluators: evaluators, arbiter: arbiter) {
                            var c = ReplayCounters()
                            let bytes = render(r.outcome, &c)
                            if r.outcome.decisions.isEmpty { c = ReplayCounters() }
                            slots.value[j] = (r.state, bytes, c)
                        }
                        j += workers
                    }
                }
            }
            for (j, i) in live.enumerated() {
                guard let (state, bytes, c) = results[j] else { continue }
                users[touched[i]] = state
                dirty.insert(touched[i])
                if resumed.insert(touched[i]).inserted { usersCounted += 1 }
                counters.add(c)
                try output.append(bytes)
            }
        }

        /// Users whose latest fix lies more than `idleMs` before the stream's clock: written by
        /// the next commit (when changed) and then dropped from memory.
        func idle(_ idleMs: Int64) -> [String] {
            guard streamTime != .min, idleMs != .max else { return [] }
            let (bound, overflow) = streamTime.subtractingReportingOverflow(idleMs)
            if overflow { return [] }
            return users.compactMap { $0.value.tEnd < bound ? $0.key : nil }
        }

        /// Drops `ids` from memory (their records stand in the database); their next fix loads them back.
        func drop(_ ids: [String]) {
            for id in ids {
                users[id] = nil
                resumed.remove(id)
            }
            evicted += ids.count
        }
    }

    /// How long in stream time a user stays in memory after their latest fix: the longest
    /// `max_gap` of every campaign's tracking, `within` plus `min_dwell` of the rules
    /// (`StateHorizon.visitReach`), cap and limit period (`decisionReach`); unbounded ones
    /// (a `visited` without `within`, a lifetime cap) are left out, since the record in the
    /// database is the whole state: a user dropped and loaded back continues exactly.
    static func idleBound(_ campaigns: CampaignSet) -> Int64 {
        var longest = max(campaigns.settings.tracking.maxGapMs ?? 0, Tracking.defaults.maxGapMs ?? 0)
        for c in campaigns.campaigns {
            longest = max(longest, c.tracking.maxGapMs ?? 0)
            if let r = StateHorizon.visitReach(c) { longest = max(longest, r) }
        }
        if let r = StateHorizon.decisionReach(campaigns) { longest = max(longest, r) }
        return longest
    }
}

/// A buffer handed to worker threads that write disjoint indices.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: UnsafeMutableBufferPointer<T>
    init(_ value: UnsafeMutableBufferPointer<T>) { self.value = value }
}
