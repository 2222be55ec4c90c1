import Foundation

extension StreamDriver {
    /// The users a stream holds in memory and how it takes a micro-batch: the lines already
    /// read, decided late or not one by one in read order (state.md 2: each line a batch of its
    /// own), then each touched user resumed once with all its accepted fixes of the micro-batch.
    /// By the equivalence of stateful runs (state.md 1.1) this prints what the per-line
    /// definition prints: the same decisions, each user's in time order.
    ///
    /// Pipelined: while one micro-batch is resumed on the worker threads (`start`), the calling
    /// thread parses the next one (`take`); a micro-batch's rejects and decisions are written,
    /// in micro-batch order, once it is done (`finish`), so the output is byte for byte that of
    /// taking the micro-batches one after the other.
    final class Session {
        let replay: Replay
        let context: Replay.ResumeContext
        let render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]
        let store: StateStore
        let reader: StateStore.UserReader
        let campaignOfSlot: SlotMap
        let statePath: String
        let path: String
        let parser: JSONLineParser
        /// Resume threads (users are independent).
        let threads: Int
        /// Micro-batches with fewer accepted fixes are resumed on the calling thread.
        let inlineFixes: Int
        /// Per extra thread: its own evaluators and arbiter.
        private let copies: [([RuleEvaluator], Arbiter)]

        /// Users in memory.
        var users: [UserKey: UserState] = [:]
        /// Users changed since the last commit.
        var dirty = Set<UserKey>()
        /// The latest accepted fix time over all users (the stream's clock, for eviction).
        var streamTime: Int64 = .min
        var stats = HistoryStats()
        var counters = ReplayCounters()
        /// Users written and dropped as idle so far in this run.
        var evicted = 0
        /// Users in memory that have had an accepted fix since they entered it.
        private var resumed = Set<UserKey>()
        /// Users counted for the summary: once per stay in memory with an accepted fix (a user
        /// dropped as idle and loaded back by a later fix is counted again).
        var usersCounted = 0
        /// Tests (negative controls): applied to every state read from the database.
        var onLoad: ((inout UserState) -> Void)?
        /// Lines taken so far (the committed count at start plus this run's).
        var lines: Int
        /// The micro-batch being resumed on the worker threads (nil: none); its users' states in
        /// `users` are still those from before it.
        private var running: MicroBatch?
        private let resuming = DispatchGroup()

        init(replay: Replay, render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8], store: StateStore,
             campaignOfSlot: [Int: Int], statePath: String, path: String, parser: JSONLineParser, lines: Int, threads: Int,
             inlineFixes: Int) throws {
            self.replay = replay
            context = replay.resumeContext()
            self.render = render
            self.store = store
            reader = try store.userReader()
            self.campaignOfSlot = SlotMap(campaignOfSlot)
            self.statePath = statePath
            self.path = path
            self.parser = parser
            self.lines = lines
            self.threads = max(1, threads)
            self.inlineFixes = inlineFixes
            copies = (0..<max(0, threads - 1)).map { _ in replay.workerCopies() }
        }

        /// One micro-batch: its users in order of first line (`touched`), their accepted fixes,
        /// their latest accepted fix time, the rejects' lines, and once resumed the results of
        /// the users with fixes (`live`).
        final class MicroBatch: @unchecked Sendable {
            let touched: [String]
            /// `touched` by id, for the late check of the next micro-batch.
            let number: [UserKey: Int]
            let batches: [[Fix]]
            let latest: [Int64?]
            let rejects: [UInt8]
            let live: [Int]
            var results: [(UserState, [UInt8], ReplayCounters)?]

            init(touched: [String], number: [UserKey: Int], batches: [[Fix]], latest: [Int64?], rejects: [UInt8]) {
                self.touched = touched
                self.number = number
                self.batches = batches
                self.latest = latest
                self.rejects = rejects
                live = touched.indices.filter { !batches[$0].isEmpty }
                results = .init(repeating: nil, count: live.count)
            }
        }

        /// A user's state: in memory, else from the database (an evicted or earlier user), else nil.
        private func load(_ user: String) throws -> UserState? {
            if let s = users[UserKey(user)] { return s }
            let count = replay.campaigns.campaigns.count
            guard let decoded = try reader.withRecord(user, { UserState.decoded($0, campaignOfSlot: campaignOfSlot, campaignCount: count) }) else { return nil }
            guard var s = decoded else {
                throw RunError.data("\(statePath): the record of user '\(user)' is damaged; the state cannot be continued")
            }
            onLoad?(&s)
            users[UserKey(user)] = s
            return s
        }

        /// The latest accepted fix time of `user` before the micro-batch being parsed: from the
        /// micro-batch being resumed when it holds the user, else from the user's state.
        /// `lookups` is set once a database lookup is made (inside one transaction per micro-batch).
        private func latest(_ user: String, lookups: inout Bool) throws -> Int64? {
            let key = UserKey(user)
            if let r = running, let k = r.number[key] { return r.latest[k] }
            if let s = users[key] { return s.tEnd }
            if !lookups {
                // One read lock for the micro-batch's lookups, not one per user.
                try store.begin()
                lookups = true
            }
            return try load(user)?.tEnd
        }

        /// Takes the complete lines `buffer[ranges]` (terminators excluded) as one micro-batch:
        /// rejects (late ones included) go to `rejects` in line order, decisions settled by the
        /// micro-batch to `output`, each user's in time order, users in order of first line.
        /// The micro-batch is parsed here, then resumed once the one before it is done and
        /// written: on the worker threads when `more` input waits (it is written by the next
        /// `take` or `finish`), else at once.
        func take(_ buffer: UnsafeBufferPointer<UInt8>, _ ranges: ArraySlice<Range<Int>>, more: Bool, output: StreamFile,
                  rejects: StreamFile?) throws {
            // Users numbered as they come (no String made for a user already in the micro-batch).
            let interner = UserInterner()
            var touched: [String] = [], number: [UserKey: Int] = [:], batches: [[Fix]] = [], latest: [Int64?] = []
            var rejected: [UInt8] = []
            // The counters in locals while the lines are taken (no access to the session per line).
            var line = lines, counts = stats, clock = streamTime
            defer { lines = line; stats = counts; streamTime = clock }
            let base = buffer.baseAddress!
            var lookups = false
            defer { if lookups { store.rollback() } }
            for r in ranges {
                line += 1
                counts.linesRead += 1
                var n = r.count
                if n > 0 && base[r.lowerBound + n - 1] == 0x0D { n -= 1 }
                if n == 0 { counts.blankLines += 1; continue }
                let p = base + r.lowerBound
                switch parser.parse(p, n) {
                case .blank:
                    counts.blankLines += 1
                case .rejected:
                    counts.rejectCounts[parser.reason.index] += 1
                    if rejects != nil {
                        rejected += RejectsWriter.line(for: RejectedLine(path: path, line: line, reason: parser.reason, detail: parser.detail,
                                                                         text: Array(UnsafeBufferPointer(start: p, count: n))))
                    }
                case .accepted:
                    let fix = parser.fix
                    let k = Int(interner.intern(parser.userPtr, parser.userLen))
                    if k == touched.count {
                        let user = String(decoding: UnsafeBufferPointer(start: parser.userPtr, count: parser.userLen), as: UTF8.self)
                        number[UserKey(user)] = k
                        touched.append(user)
                        batches.append([])
                        latest.append(try self.latest(user, lookups: &lookups))
                    }
                    if let last = latest[k], fix.time < last {
                        counts.rejectCounts[RejectReason.late.index] += 1
                        if rejects != nil {
                            rejected += RejectsWriter.line(for: RejectedLine(path: path, line: line, reason: .late,
                                detail: "\(Timestamp.string(fix.time)) is earlier than this user's latest fix, \(Timestamp.string(last))",
                                text: Array(UnsafeBufferPointer(start: p, count: n))))
                        }
                        continue
                    }
                    counts.fixesAccepted += 1
                    latest[k] = fix.time
                    batches[k].append(fix)
                    if fix.time > clock { clock = fix.time }
                }
            }
            if lookups {
                lookups = false
                try store.commit()
            }
            try finish(output: output, rejects: rejects)
            // A micro-batch resumed at once is written at once.
            if start(MicroBatch(touched: touched, number: number, batches: batches, latest: latest, rejects: rejected), beside: more) {
                try finish(output: output, rejects: rejects)
            }
        }

        /// Resumes the users of `batch` with fixes, from their states in `users` (the micro-batch
        /// before it is written): with `beside` (more input waits) and at least `inlineFixes`
        /// accepted fixes, on the worker threads while this thread parses the next; else at once
        /// (a paced stream's lines, where a thread hop would cost more than it overlaps).
        /// - Returns: whether it is resumed already.
        private func start(_ batch: MicroBatch, beside: Bool) -> Bool {
            running = batch
            guard !batch.live.isEmpty else { return true }
            let fixes = batch.live.reduce(0) { $0 + batch.batches[$1].count }
            let workers = batch.live.count >= 64 ? threads : 1
            let replay = replay, context = context, render = render, copies = copies
            let states = batch.live.map { users[UserKey(batch.touched[$0])] }
            let work: @Sendable () -> Void = {
                batch.results.withUnsafeMutableBufferPointer { out in
                    let slots = UnsafeSendable(out)
                    DispatchQueue.concurrentPerform(iterations: workers) { w in
                        let (evaluators, arbiter) = w == 0 ? (replay.evaluators, replay.arbiter) : copies[w - 1]
                        var j = w
                        while j < batch.live.count {
                            let i = batch.live[j]
                            if let r = replay.resume(userId: batch.touched[i], state: states[j], batch: batch.batches[i], final: false,
                                                     context: context, evaluators: evaluators, arbiter: arbiter) {
                                var c = ReplayCounters()
                                let bytes = render(r.outcome, &c)
                                if r.outcome.decisions.isEmpty { c = ReplayCounters() }
                                slots.value[j] = (r.state, bytes, c)
                            }
                            j += workers
                        }
                    }
                }
            }
            if !beside || fixes < inlineFixes {
                work()
                return true
            }
            DispatchQueue.global().async(group: resuming, execute: work)
            return false
        }

        /// Waits for the micro-batch being resumed, then keeps its users' states and writes its
        /// rejects and the decisions it settled. A commit, an idle wait or the end of input calls
        /// it first, so nothing read is left unwritten.
        func finish(output: StreamFile, rejects: StreamFile?) throws {
            guard let batch = running else { return }
            resuming.wait()
            running = nil
            try rejects?.append(batch.rejects)
            for (j, i) in batch.live.enumerated() {
                guard let (state, bytes, c) = batch.results[j] else { continue }
                let key = UserKey(batch.touched[i])
                users[key] = state
                dirty.insert(key)
                if resumed.insert(key).inserted { usersCounted += 1 }
                counters.add(c)
                try output.append(bytes)
            }
        }

        /// Users whose latest fix lies more than `idleMs` before the stream's clock: written by
        /// the next commit (when changed) and then dropped from memory.
        func idle(_ idleMs: Int64) -> [UserKey] {
            guard streamTime != .min, idleMs != .max else { return [] }
            let (bound, overflow) = streamTime.subtractingReportingOverflow(idleMs)
            if overflow { return [] }
            return users.compactMap { $0.value.tEnd < bound ? $0.key : nil }
        }

        /// Drops `ids` from memory (their records stand in the database); their next fix loads them back.
        func drop(_ ids: [UserKey]) {
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
