import Dispatch
import Foundation

/// A stateful run of `evaluate` or `events` (state.md 1): the batch continues every user from
/// the state at `statePath`, the run prints the decisions (or events) it settles, and the state
/// and the output are committed together. Crossing, rules and arbitration are the one engine's
/// (`Replay.resume`); this driver reads, loads and stores.
///
/// Order of the commit: the output and rejects are written aside, the database commits, then the
/// files are renamed into place (stdout is written last). Killed before the database commit,
/// the state is as before and a rerun applies the batch; killed after it, a rerun finds the
/// same batch as the state's latest and writes its stored output again.
public struct StatefulDriver {
    /// What to read and where to write (`historyPaths` are the batch).
    public var history: HistoryOptions
    /// The state database.
    public var statePath: String
    /// `--final`: the history is complete.
    public var final: Bool
    /// `evaluate` or `events` (a state serves one command).
    public var command: String
    /// Compute rules and decisions (false for `events`).
    public var evaluateRules: Bool
    /// Bytes written before the data (the CSV header).
    public var header: String

    /// Creates a driver.
    public init(history: HistoryOptions, statePath: String, final: Bool, command: String, evaluateRules: Bool, header: String = "") {
        self.history = history
        self.statePath = statePath
        self.final = final
        self.command = command
        self.evaluateRules = evaluateRules
        self.header = header
    }

    /// Runs the batch; `makeRender` builds the per-user renderer once the campaigns are loaded.
    /// - Throws: `RunError`s: a final state (65), a state of the other command (65), a newer
    ///   schema (65), a state in use (1), and every error of a one-shot run.
    public func run(_ makeRender: (CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]) throws -> RunSummary {
        var clock = StageClock()
        let store = try StateStore(path: statePath, create: true)
        try store.begin()
        var committed = false
        defer { if !committed { store.rollback() } }
        // The last run's pages, still in the write-ahead log, are copied into the database on
        // another connection while this one holds the lock and the batch is read, and the log
        // is begun again (`StateStore.prepareLog`; "Performance" in docs/state.md). The store
        // is not used on this thread from its start until it has finished.
        var logReady: BackgroundTask<Result<Void, Error>>?
        defer { _ = logReady?.value }

        // The batch's hash is needed first only on a state that a new batch may not continue
        // (to tell a repeat, which is allowed, from an error); otherwise it is computed beside
        // the reading and the campaigns, and a repeat is told before the read batch is used.
        let runs = Int(try store.meta("runs") ?? "0") ?? 0
        let latest = try store.latestRun()
        let finalAt = try store.meta("final_at")
        let otherCommand = try store.meta("command").flatMap { $0 == command ? nil : $0 }
        let paths = history.historyPaths
        let hashJob = BackgroundTask(inBackground: finalAt == nil && otherCommand == nil) {
            Result { try BatchHash.of(paths: paths) }
        }
        /// Writes a repeated batch's output again; nil when the batch is not the latest.
        func repeated() throws -> RunSummary? {
            let hash = try hashJob.value.get()
            guard let latest, latest.command == command, try BatchHash.isSameBatch(stored: latest.batch, hash: hash, paths: paths) else { return nil }
            _ = logReady?.value
            try writeAgain(try store.latestRun(withOutput: true) ?? latest)
            Console.err("note: this batch was already applied by run \(latest.run) of \(statePath) (at \(latest.at)); its output is written again from the state, and the state is unchanged\n")
            var summary = RunSummary(stats: HistoryStats(), counters: ReplayCounters(), clock: clock, decisions: evaluateRules)
            summary.note = ""
            return summary
        }
        if finalAt != nil || otherCommand != nil, let summary = try repeated() { return summary }
        if let at = finalAt {
            throw RunError.data("\(statePath): the state was finalized by run \(try store.meta("final_run") ?? "?") at \(at) (--final); a final state takes no more batches: start a new state")
        }
        if let other = otherCommand {
            throw RunError.data("\(statePath): the state holds '\(other)' runs; '\(command)' cannot continue it: use another --state")
        }

        // The campaigns load and compile on another thread while the batch is read; their
        // errors win over reading errors, as in a one-shot run.
        let options = Replay.Options(threads: history.threads, evaluateRules: evaluateRules)
        let campaignPaths = history.campaignPaths
        let cached = try store.sourceFingerprints()
        logReady = BackgroundTask { Result { try store.prepareLog() } }
        let job = BackgroundTask { () -> Result<(CampaignSet, Replay, Fingerprints), Error> in
            do {
                let set = try CampaignLoading.load(campaignPaths).campaignSet
                return .success((set, Replay(campaigns: set, options: options), Fingerprints(set, cached: cached)))
            } catch {
                return .failure(error)
            }
        }

        // The batch, and (below) the late fixes among it.
        let progress = ProgressLine(quiet: history.quiet)
        var rejects: [RejectedLine] = []
        var batchOptions = history
        batchOptions.rejects = nil
        let read = Result { try HistoryLoading.readPacked(batchOptions, progress: progress, observe: { rejects.append($0) }) }
        if let summary = try repeated() { return summary }
        let hash = try hashJob.value.get()
        let (campaigns, replay, fingerprints) = try job.value.get()
        let (batch, readStats) = try read.get()
        var stats = readStats
        clock.lap("read")

        // Nothing is written before the log is ready; the transaction then begins again, so
        // that the commit writes the log from its beginning.
        try logReady?.value.get()

        // Which campaigns continue (state.md 1.3).
        let (entries, campaignOfSlot) = try Self.reconcile(store: store, campaigns: campaigns, runs: runs, fingerprints: fingerprints.values)
        // The batch's users, then (with --final) the state's users without fixes in it: those
        // past `batch.userCount` have none.
        var ids = batch.userIds
        if final {
            var seen = Set(ids)
            for id in try store.userIds() where seen.insert(id).inserted { ids.append(id) }
        }
        let order = Replay.byteOrder(ids)

        // The one engine, resumed, on the worker threads; output in byte order of the ids.
        let context = replay.resumeContext()
        let render = makeRender(campaigns)
        let coding = RecordCoding(campaignOfSlot: campaignOfSlot, campaignCount: campaigns.campaigns.count, slots: entries.map(\.slot))
        // The users' records are read on this thread block by block in byte order of the ids
        // (one ordered pass), each block's as the workers may start it, and decoded, cut of
        // their late fixes, on the worker threads with the replay. Each finished block's
        // records are written, and its output kept, on this thread between those reads and
        // while the workers compute the next blocks: one thread uses the database. A damaged
        // record or a late fix with --strict is told below, and the transaction is then rolled
        // back.
        var output = Array(header.utf8)
        var counters = ReplayCounters()
        var damaged: UserResult?
        var lateBefore: [String: Int64] = [:]
        var lateCount = 0
        let writer = try store.userWriter()
        try Self.resumeAll(replay, ids: ids, batch: batch, coding: coding, order: order, final: final,
                           context: context, render: render, threads: history.threads,
                           records: { try store.records(sortedIds: $0) }) { results, bytes, blockCounters in
            output += bytes
            counters.add(blockCounters)
            for r in results {
                if r.damaged, damaged.map({ r.index < $0.index }) ?? true { damaged = r }
                if r.late > 0 {
                    lateCount += r.late
                    lateBefore[r.id] = r.lateBefore
                }
                guard !r.skipped else { continue }
                try writer.put(r.id, held: r.held, record: r.record)
            }
        }
        if let damaged {
            throw RunError.data("\(statePath): the record of user '\(damaged.id)' is damaged; the state cannot be continued")
        }
        if lateCount > 0 {
            stats.fixesAccepted -= lateCount
            stats.rejectCounts[RejectReason.late.index] += lateCount
            let late = try LateLines.find(paths: history.historyPaths, fields: try fieldMapping(), lateBefore: lateBefore)
            if history.strict, let r = late.first {
                throw RunError.data("\(r.path):\(r.line): rejected line (late): \(r.detail); --strict makes any rejected line fatal")
            }
            let order = Dictionary(history.historyPaths.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            rejects = (rejects + late).enumerated().sorted { a, b in
                let ka = (order[a.element.path] ?? 0, a.element.line, a.offset), kb = (order[b.element.path] ?? 0, b.element.line, b.offset)
                return ka < kb
            }.map(\.element)
        }
        clock.lap("replay")

        var rejectBytes: [UInt8] = []
        for r in rejects { rejectBytes += RejectsWriter.line(for: r) }

        // Commit: files aside, the database, then the files in place.
        let sink = try OutputSink(path: history.output)
        let rejectsFile = try history.rejects.map { try RejectsWriter(path: $0) }
        for r in rejects { try rejectsFile?.write(r) }
        let toFile = history.output != nil && history.output != "-"
        if toFile { try sink.write(output) }
        try store.setCampaigns(entries)
        if fingerprints.bySource != cached { try store.setSourceFingerprints(fingerprints.bySource) }
        let now = Timestamp.string(Int64(Date().timeIntervalSince1970 * 1000))
        try store.addRun(.init(run: runs + 1, at: now, batch: hash, command: command, output: output, rejects: rejectBytes))
        try store.setMeta("runs", String(runs + 1))
        try store.setMeta("command", command)
        if final {
            try store.setMeta("final_at", now)
            try store.setMeta("final_run", String(runs + 1))
        }
        // The output file aside is synced beside the database's commit: only its rename must
        // wait for the commit.
        let synced = BackgroundTask(inBackground: toFile) { Result { try sink.sync() } }
        let commit = Result { try store.commit() }
        let sync = synced.value
        try commit.get()
        committed = true
        try sync.get()
        if !toFile { try sink.write(output) }
        try sink.close()
        try rejectsFile?.close()
        clock.lap("commit")
        return RunSummary(stats: stats, counters: counters, clock: clock, decisions: evaluateRules)
    }

    /// The campaigns' fingerprints, each taken from the state when the bytes it was loaded from
    /// are those of a campaign of the state's latest run (the same bytes parse into the same
    /// campaign), computed otherwise; they hash every region's geometry.
    struct Fingerprints: Sendable {
        /// By campaign index.
        var values: [String] = []
        /// What the state keeps for the next run: by `CampaignFingerprint.sourceKey`.
        var bySource: [String: String] = [:]

        init(_ set: CampaignSet, cached: [String: String]) {
            let settingsKey = CampaignFingerprint.settingsKey(set.settings)
            for c in set.campaigns {
                let key = CampaignFingerprint.sourceKey(c, settingsKey: settingsKey)
                let fp = key.flatMap { cached[$0] } ?? CampaignFingerprint.of(c, settings: set.settings)
                values.append(fp)
                if let key { bySource[key] = fp }
            }
        }
    }

    /// The state's campaign table for this run's campaigns (state.md 1.3): an unchanged campaign
    /// keeps its slot; a new or changed one gets a new slot and starts afresh (warned on stderr
    /// once the state has runs); a campaign no longer present is dropped (warned).
    /// - Parameter fingerprints: each campaign's `CampaignFingerprint`, when already computed.
    /// - Returns: the new table, and the campaign index of every slot that continues.
    static func reconcile(store: StateStore, campaigns: CampaignSet, runs: Int,
                          fingerprints: [String]? = nil) throws -> ([StateStore.CampaignEntry], [Int: Int]) {
        let known = try store.campaigns()
        var entries: [StateStore.CampaignEntry] = []
        var campaignOfSlot: [Int: Int] = [:]
        // Slots are never reused: a dropped campaign's slot stays in the records of users not
        // seen since, and a new campaign on it would read their parts as its own.
        var nextSlot = max(known.map(\.slot).max() ?? 0, Int(try store.meta("last_slot") ?? "") ?? 0) + 1
        for (c, campaign) in campaigns.campaigns.enumerated() {
            let fp = fingerprints?[c] ?? CampaignFingerprint.of(campaign, settings: campaigns.settings)
            if let e = known.first(where: { $0.id == campaign.id && $0.fingerprint == fp }) {
                entries.append(e)
                campaignOfSlot[e.slot] = c
                continue
            }
            entries.append(.init(slot: nextSlot, id: campaign.id, fingerprint: fp, sinceRun: runs + 1))
            nextSlot += 1
            if runs > 0 {
                let was = known.contains { $0.id == campaign.id } ? "changed since the state's last run" : "new to the state"
                Console.err("warning: campaign \(campaign.id) is \(was): it starts afresh, its timeline for each user beginning at the user's first fix from this batch on (state.md 1.3)\n")
            }
        }
        for e in known where !campaigns.campaigns.contains(where: { $0.id == e.id }) {
            Console.err("warning: campaign \(e.id) is no longer in the campaigns: it is dropped from the state (its deliveries still count toward limits.per_user)\n")
        }
        try store.setMeta("last_slot", String(nextSlot - 1))

        return (entries, campaignOfSlot)
    }

    /// The `--field` mapping (already checked by the reading).
    private func fieldMapping() throws -> HistoryFields {
        var fields = HistoryFields()
        for (name, source) in history.fieldMap.sorted(by: { $0.key < $1.key }) {
            do { try fields.apply("\(name)=\(source)") } catch { throw RunError.usage("--field \(name)=\(source): \(error)") }
        }
        return fields
    }

    /// Writes a repeated batch's stored output and rejects again.
    private func writeAgain(_ run: StateStore.RunEntry) throws {
        let sink = try OutputSink(path: history.output)
        try sink.write(run.output)
        if let path = history.rejects {
            let f = path == "-" ? nil : try AtomicFile(path: path)
            if let f { try f.write(run.rejects) } else { try OutputSink(path: nil).write(run.rejects) }
            try sink.close()
            try f?.commit()
        } else {
            try sink.close()
        }
    }

    /// How records are read and written in this run (state.md 1.3: the slots of the campaigns).
    struct RecordCoding: Sendable {
        var campaignOfSlot: [Int: Int]
        var campaignCount: Int
        var slots: [Int]
    }

    /// One user's result.
    struct UserResult: Sendable {
        var id: String
        /// The user's index in the run's ids.
        var index: Int
        /// The record after this run, and its held decisions.
        var record: [UInt8] = []
        var held = 0
        /// Late fixes cut from the batch, and the `Tend` they were earlier than.
        var late = 0
        var lateBefore: Int64 = 0
        /// The stored record could not be read.
        var damaged = false
        /// Nothing to store (a damaged record, or a user with neither state nor fixes).
        var skipped = false
    }

    /// Resumes every user on `threads` worker threads, each decoding the user's record, cutting
    /// the late fixes and encoding the new record; `consume` gets the results in `order`, on the
    /// calling thread, block by block as the workers finish them, with the block's output
    /// (its users' rendered bytes, in order) and counters, made on the worker as in a one-shot
    /// replay. The fixes of user `i` are `batch`'s, read in place (none for `i >= batch.userCount`).
    ///
    /// `records` gets the ids of one block at a time, in `order` (byte order), and returns their
    /// stored records (nil: a new user); it is called on the calling thread, block after block,
    /// between the `consume`s of the blocks already finished, so that the workers start on the
    /// first block while the later ones are read, and one thread does all the reading and writing.
    static func resumeAll(_ replay: Replay, ids: [String], batch: PackedHistory, coding: RecordCoding, order: [Int],
                          final: Bool, context: Replay.ResumeContext,
                          render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8], threads: Int,
                          records: ([String]) throws -> [[UInt8]?],
                          consume: ([UserResult], [UInt8], ReplayCounters) throws -> Void) rethrows {
        // The blocks of a one-shot replay: smaller ones at the end, so that the threads run out
        // of work together.
        let starts = Replay.blockStarts(users: order.count, threads: threads)
        let blocks = starts.count - 1
        let slots = ResultSlots(blocks: blocks)
        let next = BlockQueue(count: blocks)
        let read = RecordSlots(blocks: blocks)
        let group = DispatchGroup()
        for w in 0..<max(1, min(threads, blocks)) {
            DispatchQueue.global().async(group: group) {
                let (evaluators, arbiter) = w == 0 ? (replay.evaluators, replay.arbiter) : replay.workerCopies()
                while let b = next.take(), let stored = read.wait(b) {
                    var block: [UserResult] = []
                    block.reserveCapacity(starts[b + 1] - starts[b])
                    var bytes: [UInt8] = []
                    var counters = ReplayCounters()
                    for k in starts[b]..<starts[b + 1] {
                        block.append(resumeOne(replay, index: order[k], ids: ids, batch: batch, record: stored[k - starts[b]], coding: coding,
                                               final: final, context: context, render: render, evaluators: evaluators, arbiter: arbiter,
                                               bytes: &bytes, counters: &counters))
                    }
                    slots.set(b, block)
                    next.finish(b, bytes: bytes, counters: counters)
                }
            }
        }
        // Every block is waited for, so that no worker outlives a `records` or `consume` that
        // threw (the blocks not read by then are given up).
        defer {
            read.giveUp()
            group.wait()
        }
        var consumed = 0
        func consumeBlock() throws {
            let (bytes, counters) = next.wait(consumed)
            try consume(slots.take(consumed), bytes, counters)
            consumed += 1
        }
        for b in 0..<blocks {
            read.set(b, try records(order[starts[b]..<starts[b + 1]].map { ids[$0] }))
            let finished = next.firstUnfinished(from: consumed)
            while consumed < finished { try consumeBlock() }
        }
        while consumed < blocks { try consumeBlock() }
    }

    /// One user of `resumeAll`: its rendered output is appended to `bytes`, its counts added to `counters`.
    private static func resumeOne(_ replay: Replay, index i: Int, ids: [String], batch: PackedHistory, record: [UInt8]?, coding: RecordCoding,
                                  final: Bool, context: Replay.ResumeContext,
                                  render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                                  evaluators: [RuleEvaluator], arbiter: Arbiter,
                                  bytes: inout [UInt8], counters: inout ReplayCounters) -> UserResult {
        if i < batch.userCount {
            return batch.withFixes(of: i) {
                resumeOne(replay, index: i, ids: ids, fixes: $0, record: record, coding: coding, final: final, context: context,
                          render: render, evaluators: evaluators, arbiter: arbiter, bytes: &bytes, counters: &counters)
            }
        }
        return resumeOne(replay, index: i, ids: ids, fixes: UnsafeBufferPointer(start: nil, count: 0), record: record, coding: coding, final: final,
                         context: context, render: render, evaluators: evaluators, arbiter: arbiter, bytes: &bytes, counters: &counters)
    }

    /// As `resumeOne(_:index:ids:batch:...)`, over the user's fixes `fixes` (valid during the call).
    private static func resumeOne(_ replay: Replay, index i: Int, ids: [String], fixes: UnsafeBufferPointer<Fix>, record: [UInt8]?,
                                  coding: RecordCoding, final: Bool, context: Replay.ResumeContext,
                                  render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                                  evaluators: [RuleEvaluator], arbiter: Arbiter,
                                  bytes: inout [UInt8], counters: inout ReplayCounters) -> UserResult {
        var result = UserResult(id: ids[i], index: i)
        var state: UserState?
        var batch = fixes
        if let record {
            guard let st = UserState.decoded(record, campaignOfSlot: coding.campaignOfSlot, campaignCount: coding.campaignCount) else {
                result.damaged = true
                result.skipped = true
                return result
            }
            if let first = batch.first, first.time < st.tEnd {
                let n = batch.firstIndex { $0.time >= st.tEnd } ?? batch.count
                batch = UnsafeBufferPointer(rebasing: batch[n...])
                result.late = n
                result.lateBefore = st.tEnd
            }
            state = st
        }
        guard let r = replay.resume(userId: ids[i], state: state, batch: batch, final: final, context: context,
                                    evaluators: evaluators, arbiter: arbiter) else {
            result.skipped = true
            return result
        }
        let o = r.outcome
        // The renderer counts every visit and event of the outcome; a resumed user's are those
        // of its window.
        let (visits, events) = (counters.visits, counters.events)
        bytes += render(o, &counters)
        counters.visits = visits + o.visits.reduce(0) { n, vs in n + vs.reduce(0) { $0 + (($1.enter >= o.eventsFrom && $1.enter < o.eventsBefore) ? 1 : 0) } }
        counters.events = events + r.events
        result.record = r.state.encoded(slots: coding.slots)
        result.held = r.state.held
        return result
    }
}

/// The stored records of each block, set by the reading thread and waited for by the workers.
private final class RecordSlots: @unchecked Sendable {
    private var blocks: [[[UInt8]?]?]
    private var givenUp = false
    private let condition = NSCondition()
    init(blocks: Int) { self.blocks = Array(repeating: nil, count: blocks) }
    func set(_ b: Int, _ records: [[UInt8]?]) {
        condition.lock()
        blocks[b] = records
        condition.broadcast()
        condition.unlock()
    }
    /// Blocks not set by now are never set: their `wait` returns nil.
    func giveUp() {
        condition.lock()
        givenUp = true
        condition.broadcast()
        condition.unlock()
    }
    /// Waits for block `b`'s records and takes them; nil when given up.
    func wait(_ b: Int) -> [[UInt8]?]? {
        condition.lock()
        defer { condition.unlock() }
        while blocks[b] == nil && !givenUp { condition.wait() }
        let records = blocks[b]
        blocks[b] = nil
        return records
    }
}

/// Results written by block from several threads.
private final class ResultSlots: @unchecked Sendable {
    private var blocks: [[StatefulDriver.UserResult]]
    private let lock = NSLock()
    init(blocks: Int) { self.blocks = Array(repeating: [], count: blocks) }
    func set(_ b: Int, _ block: [StatefulDriver.UserResult]) {
        lock.lock()
        blocks[b] = block
        lock.unlock()
    }
    /// Takes block `b` (freeing it).
    func take(_ b: Int) -> [StatefulDriver.UserResult] {
        lock.lock()
        defer { lock.unlock() }
        let block = blocks[b]
        blocks[b] = []
        return block
    }
}
