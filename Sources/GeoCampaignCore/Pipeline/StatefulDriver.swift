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
        // The campaigns load and compile on a thread of their own from the start, beside the
        // state's opening (which rebuilds the index of the write-ahead log: a read of the
        // previous run's pages) and the batch's reading: they are the longest part of a run's
        // start. Their diagnostics are printed, and their errors thrown, when the run waits
        // for them, after the state's own errors (in use, final, a newer schema), as when they
        // were loaded once the state was open. Their fingerprints wait for the ones the state
        // keeps (`Fingerprints`), handed over once it is open.
        let options = Replay.Options(threads: history.threads, evaluateRules: evaluateRules)
        let campaignPaths = history.campaignPaths
        let cachedFingerprints = Handoff<[String: String]>()
        let job = BackgroundTask(.ownThread("campaigns")) { () -> (LoadResult, Replay?, Fingerprints?, loadSeconds: Double) in
            let start = Date()
            let loaded = CampaignLoading.loadQuietly(campaignPaths, hashesSources: true)
            let seconds = Date().timeIntervalSince(start)
            guard loaded.unreadablePaths.isEmpty, !loaded.hasErrors else { return (loaded, nil, nil, seconds) }
            let replay = Replay(campaigns: loaded.campaignSet, options: options)
            return (loaded, replay, Fingerprints(loaded.campaignSet, cached: cachedFingerprints.value), seconds)
        }
        // Handed over in every case, so that the job ends whatever this run does.
        var cached: [String: String] = [:]
        defer { cachedFingerprints.set(cached) }
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
        let hashBatch = { @Sendable in Result { try BatchHash.of(paths: paths) } }
        /// Writes a repeated batch's output again; nil when the batch is not the latest.
        func repeated(_ hashJob: BackgroundTask<Result<String, Error>>) throws -> RunSummary? {
            let hash = try hashJob.value.get()
            guard let latest, latest.command == command, try BatchHash.isSameBatch(stored: latest.batch, hash: hash, paths: paths) else { return nil }
            _ = logReady?.value
            try writeAgain(try store.latestRun(withOutput: true) ?? latest)
            Console.err("note: this batch was already applied by run \(latest.run) of \(statePath) (at \(latest.at)); its output is written again from the state, and the state is unchanged\n")
            if final && finalAt == nil {
                // The repeat is not applied, so neither is its --final: say how to finalize.
                Console.err("note: --final was not applied either: the state stays open; to finalize it, run again with --final and an empty batch (--history /dev/null)\n")
            }
            var summary = RunSummary(stats: HistoryStats(), counters: ReplayCounters(), clock: clock, decisions: evaluateRules)
            summary.note = ""
            return summary
        }
        if finalAt != nil || otherCommand != nil, let summary = try repeated(BackgroundTask(.here, hashBatch)) { return summary }
        if let at = finalAt {
            throw RunError.data("\(statePath): the state was finalized by run \(try store.meta("final_run") ?? "?") at \(at) (--final); a final state takes no more batches: start a new state")
        }
        if let other = otherCommand {
            throw RunError.data("\(statePath): the state holds '\(other)' runs; '\(command)' cannot continue it: use another --state")
        }

        // The campaigns' errors win over reading errors, as in a one-shot run.
        cached = try store.sourceFingerprints()
        cachedFingerprints.set(cached)
        let known = try store.campaigns()
        let lastSlot = Int(try store.meta("last_slot") ?? "") ?? 0
        // From here until `logReady` is done, this thread leaves the store alone: the first
        // write waits for it. The users' records are read on the checkpoint's connection
        // (`StateStore.RecordReader`), handed over once the log has been copied.
        let recordReader = Handoff<StateStore.RecordReader?>()
        let stateFile = statePath
        let reader = { @Sendable () throws -> StateStore.RecordReader in
            guard let r = recordReader.value else { throw RunError.failure("\(stateFile): cannot open the state a second time to read its users' records") }
            return r
        }
        // The campaigns' job, the batch's hash and the log's preparation each run on a thread of
        // their own (`BackgroundTask.Place.ownThread`): the global queue's pool (a thread per
        // core) is left to the parallel loops of the reading and loading, as in a one-shot run
        // (on the pool, the campaigns waited for a free thread, and the batch was parsed on one).
        logReady = BackgroundTask(.ownThread("state-log")) { Result { try store.prepareLog(checkpointed: { recordReader.set($0) }) } }

        // The batch, and (below) the late fixes among it.
        let progress = ProgressLine(quiet: history.quiet)
        var rejects: [RejectedLine] = []
        var batchOptions = history
        batchOptions.rejects = nil
        let read = Result { try HistoryLoading.readPacked(batchOptions, progress: progress, observe: { rejects.append($0) }) }
        // The batch's hash once it is read: beside the reading it took the cores from the parse
        // and the campaigns' loading, the run's longest part until then; after it, it shares them
        // with the loading's end and the records' reading (M, run 30, in one loop of 11 rounds:
        // the read stage 120 ms against 134 ms with the hash from the start, 110 ms with it
        // during the replay, whose 92 ms became 110).
        let hashJob = BackgroundTask(.ownThread("batch-hash"), hashBatch)

        // The batch's users, then (with --final) the state's users without fixes in it: those
        // past `batch.userCount` have none. Their records are read from now on, beside the
        // campaigns' loading, the batch's hash and the replay (`RecordFeed`); before the hash
        // tells whether the batch is a repeat (then they are not used).
        var ids: [String] = []
        var order: [Int] = []
        var feed: RecordFeed<UserBlockCursor.Location>?
        defer {
            feed?.stop()
            _ = try? feed?.finish()
        }
        if case .success(let (batch, _)) = read {
            ids = batch.userIds
            if final {
                var seen = Set(ids)
                for id in try reader().userIds() where seen.insert(id).inserted { ids.append(id) }
            }
            order = Replay.byteOrder(ids)
            feed = RecordFeed(ids: ids, order: order, starts: Replay.blockStarts(users: order.count, threads: history.threads)) {
                try reader().locations(sortedIds: $0)
            }
        }
        if let summary = try repeated(hashJob) { return summary }
        let hash = try hashJob.value.get()
        let (loaded, compiled, computed, loadSeconds) = job.value
        clock.record("campaigns", seconds: loadSeconds, during: "read")
        try CampaignLoading.report(loaded)
        guard let replay = compiled, let fingerprints = computed else { throw RunError.failure("the campaigns were not compiled") }
        let campaigns = loaded.campaignSet
        let (batch, readStats) = try read.get()
        // (Set whenever the batch was read, as it was to come here.)
        guard let records = feed else { throw RunError.failure("\(statePath): the users' records were not read") }
        var stats = readStats
        clock.lap("read")

        // Which campaigns continue (state.md 1.3).
        let (entries, campaignOfSlot, newLastSlot) = Self.reconcile(known: known, lastSlot: lastSlot, campaigns: campaigns, runs: runs,
                                                                   fingerprints: fingerprints.values)

        // The one engine, resumed, on the worker threads; output in byte order of the ids.
        let context = replay.resumeContext()
        let render = makeRender(campaigns)
        let coding = RecordCoding(campaignOfSlot: SlotMap(campaignOfSlot), campaignCount: campaigns.campaigns.count, slots: entries.map(\.slot))
        // The users' records, read by the feed, are decoded, cut of their late fixes, on the
        // worker threads with the replay. Each finished block's records are written, and its
        // output kept, on this thread while the workers compute the next blocks, from when the
        // log is ready (`prepareLog`: nothing is written before; the transaction then begins
        // again, so that the commit writes the log from its beginning). A damaged record or a
        // late fix with --strict is told below, and the transaction is then rolled back.
        var output = Array(header.utf8)
        var counters = ReplayCounters()
        var damaged: UserResult?
        var lateBefore: [UserKey: Int64] = [:]
        var lateCount = 0
        var writer: UserBlockWriter?
        try Self.resumeAll(replay, ids: ids, batch: batch, coding: coding, order: order, final: final,
                           context: context, render: render, threads: history.threads, feed: records) { results, bytes, blockCounters in
            output += bytes
            counters.add(blockCounters)
            for r in results {
                if r.damaged, damaged.map({ r.index < $0.index }) ?? true { damaged = r }
                if r.late > 0 {
                    lateCount += r.late
                    lateBefore[UserKey(r.id)] = r.lateBefore
                }
                if writer == nil {
                    try logReady?.value.get()
                    writer = try store.blockWriter()
                }
                try writer?.set(r.location, id: r.id, held: r.held, record: r.skipped ? nil : r.record)
            }
        }
        try writer?.finish()
        // Its read transaction ends before the commit (which, in a rollback journal, would wait for it).
        recordReader.value?.end()
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
        try logReady?.value.get()
        try store.setCampaigns(entries)
        try store.setMeta("last_slot", String(newLastSlot))
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
    /// once the state has had a run or a stream); a campaign no longer present is dropped (warned).
    /// - Parameter fingerprints: each campaign's `CampaignFingerprint`, when already computed.
    /// - Returns: the new table, and the campaign index of every slot that continues.
    static func reconcile(store: StateStore, campaigns: CampaignSet, runs: Int,
                          fingerprints: [String]? = nil) throws -> ([StateStore.CampaignEntry], [Int: Int]) {
        let (entries, campaignOfSlot, lastSlot) = reconcile(known: try store.campaigns(), lastSlot: Int(try store.meta("last_slot") ?? "") ?? 0,
                                                            campaigns: campaigns, runs: runs, fingerprints: fingerprints)
        try store.setMeta("last_slot", String(lastSlot))
        return (entries, campaignOfSlot)
    }

    /// As `reconcile(store:campaigns:runs:fingerprints:)` over the state's campaign table
    /// `known` and its `last_slot`; returns the `last_slot` to store as well.
    static func reconcile(known: [StateStore.CampaignEntry], lastSlot: Int, campaigns: CampaignSet, runs: Int,
                          fingerprints: [String]? = nil) -> ([StateStore.CampaignEntry], [Int: Int], Int) {
        var entries: [StateStore.CampaignEntry] = []
        var campaignOfSlot: [Int: Int] = [:]
        // Slots are never reused: a dropped campaign's slot stays in the records of users not
        // seen since, and a new campaign on it would read their parts as its own.
        var nextSlot = max(known.map(\.slot).max() ?? 0, lastSlot) + 1
        for (c, campaign) in campaigns.campaigns.enumerated() {
            let fp = fingerprints?[c] ?? CampaignFingerprint.of(campaign, settings: campaigns.settings)
            if let e = known.first(where: { $0.id == campaign.id && $0.fingerprint == fp }) {
                entries.append(e)
                campaignOfSlot[e.slot] = c
                continue
            }
            entries.append(.init(slot: nextSlot, id: campaign.id, fingerprint: fp, sinceRun: runs + 1))
            nextSlot += 1
            // Not on a state's first run or stream (nothing to start afresh from). A stream
            // counts no runs, so a state only streams have used is known by its campaigns.
            if runs > 0 || !known.isEmpty {
                let was = known.contains { $0.id == campaign.id } ? "changed since the state's last run" : "new to the state"
                Console.err("warning: campaign \(campaign.id) is \(was): it starts afresh, its timeline for each user beginning at the user's first fix from this batch on (state.md 1.3)\n")
            }
        }
        for e in known where !campaigns.campaigns.contains(where: { $0.id == e.id }) {
            Console.err("warning: campaign \(e.id) is no longer in the campaigns: it is dropped from the state (its deliveries still count toward limits.per_user)\n")
        }
        return (entries, campaignOfSlot, nextSlot - 1)
    }

    /// The `--field` mapping (already checked by the reading).
    private func fieldMapping() throws -> HistoryFields {
        // On top of --history-format and --ts-format, as the batch was read.
        var fields = history.baseFields
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
        var campaignOfSlot: SlotMap
        var campaignCount: Int
        var slots: [Int]
    }

    /// One user's result.
    struct UserResult: Sendable {
        var id: String
        /// The user's index in the run's ids.
        var index: Int
        /// Where the state holds (or is to hold) the user's record.
        var location: UserBlockCursor.Location
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

    /// Resumes every user on `threads` worker threads, each decoding the user's record (where
    /// its block holds it), cutting the late fixes and encoding the new record; `consume` gets
    /// the results in `order`, on the calling thread, block by block as the workers finish them,
    /// with the block's output (its users' rendered bytes, in order) and counters, made on the
    /// worker as in a one-shot replay. The fixes of user `i` are `batch`'s, read in place (none
    /// for `i >= batch.userCount`). The users' locations in the state come from `feed`, block by
    /// block (its blocks are the replay's); a worker waits for its block's only.
    /// - Throws: what `consume` throws, or the feed's error (the blocks not read by then are
    ///   given up, and the workers stop).
    static func resumeAll(_ replay: Replay, ids: [String], batch: PackedHistory, coding: RecordCoding, order: [Int],
                          final: Bool, context: Replay.ResumeContext,
                          render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8], threads: Int,
                          feed: RecordFeed<UserBlockCursor.Location>, consume: ([UserResult], [UInt8], ReplayCounters) throws -> Void) throws {
        let starts = feed.starts
        let blocks = starts.count - 1
        let slots = ResultSlots(blocks: blocks)
        let next = BlockQueue(count: blocks)
        let group = DispatchGroup()
        for w in 0..<max(1, min(threads, blocks)) {
            DispatchQueue.global().async(group: group) {
                let (evaluators, arbiter) = w == 0 ? (replay.evaluators, replay.arbiter) : replay.workerCopies()
                while let b = next.take(), let stored = feed.wait(b) {
                    var block: [UserResult] = []
                    block.reserveCapacity(starts[b + 1] - starts[b])
                    var bytes: [UInt8] = []
                    var counters = ReplayCounters()
                    for k in starts[b]..<starts[b + 1] {
                        block.append(resumeOne(replay, index: order[k], ids: ids, batch: batch, location: stored[k - starts[b]], coding: coding,
                                               final: final, context: context, render: render, evaluators: evaluators, arbiter: arbiter,
                                               bytes: &bytes, counters: &counters))
                    }
                    slots.set(b, block)
                    next.finish(b, bytes: bytes, counters: counters)
                }
            }
        }
        // Every block is waited for, so that no worker outlives a `consume` or a feed that
        // threw (the blocks not read by then are given up).
        defer {
            feed.stop()
            group.wait()
        }
        // A block whose records were never read is never finished: the feed failed.
        for b in 0..<blocks where feed.wasRead(b) {
            let (bytes, counters) = next.wait(b)
            try consume(slots.take(b), bytes, counters)
        }
        try feed.finish()
    }

    /// One user of `resumeAll`: its rendered output is appended to `bytes`, its counts added to `counters`.
    private static func resumeOne(_ replay: Replay, index i: Int, ids: [String], batch: PackedHistory, location: UserBlockCursor.Location,
                                  coding: RecordCoding, final: Bool, context: Replay.ResumeContext,
                                  render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                                  evaluators: [RuleEvaluator], arbiter: Arbiter,
                                  bytes: inout [UInt8], counters: inout ReplayCounters) -> UserResult {
        if i < batch.userCount {
            return batch.withFixes(of: i) {
                resumeOne(replay, index: i, ids: ids, fixes: $0, location: location, coding: coding, final: final, context: context,
                          render: render, evaluators: evaluators, arbiter: arbiter, bytes: &bytes, counters: &counters)
            }
        }
        return resumeOne(replay, index: i, ids: ids, fixes: UnsafeBufferPointer(start: nil, count: 0), location: location, coding: coding, final: final,
                         context: context, render: render, evaluators: evaluators, arbiter: arbiter, bytes: &bytes, counters: &counters)
    }

    /// As `resumeOne(_:index:ids:batch:...)`, over the user's fixes `fixes` (valid during the call).
    private static func resumeOne(_ replay: Replay, index i: Int, ids: [String], fixes: UnsafeBufferPointer<Fix>, location: UserBlockCursor.Location,
                                  coding: RecordCoding, final: Bool, context: Replay.ResumeContext,
                                  render: @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                                  evaluators: [RuleEvaluator], arbiter: Arbiter,
                                  bytes: inout [UInt8], counters: inout ReplayCounters) -> UserResult {
        var result = UserResult(id: ids[i], index: i, location: location)
        var state: UserState?
        var batch = fixes
        if let record = location.record {
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
        guard let r = replay.resume(userId: ids[i], state: consume state, batch: batch, final: final, context: context,
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

/// The stored records of a run's users, read block by block in byte order of the ids on a
/// thread of its own (one ordered pass over the users table, beside the campaigns' loading and
/// the replay), and waited for by the workers block by block.
final class RecordFeed<Item>: @unchecked Sendable {
    /// The blocks: block `b` is the users `order[starts[b]..<starts[b + 1]]`.
    let starts: [Int]
    private var blocks: [[Item]?]
    /// Blocks read so far.
    private var read = 0
    /// No more blocks are read: the reading stopped or failed.
    private var stopped = false
    private var error: Error?
    private let condition = NSCondition()
    private let reading = DispatchGroup()

    /// Starts reading: block `b`'s records are `records` of its ids, in order (for a run: each
    /// user's location in the state, `UserBlockCursor.Location`).
    init(ids: [String], order: [Int], starts: [Int], records: @escaping @Sendable ([String]) throws -> [Item]) {
        self.starts = starts
        blocks = Array(repeating: nil, count: starts.count - 1)
        reading.enter()
        // A thread of its own (see `BackgroundTask.Place.ownThread`); it holds the feed until it ends.
        BackgroundTask<Void>.startThread("state-records") { [self] in
            defer { reading.leave() }
            for b in 0..<(starts.count - 1) {
                do {
                    guard set(b, try records(order[starts[b]..<starts[b + 1]].map { ids[$0] })) else { return }
                } catch {
                    fail(error)
                    return
                }
            }
        }
    }

    /// Sets block `b`; false when stopped.
    private func set(_ b: Int, _ records: [Item]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return false }
        blocks[b] = records
        read = b + 1
        condition.broadcast()
        return true
    }

    private func fail(_ e: Error) {
        condition.lock()
        error = e
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks not read by now are never read: their `wait` returns nil.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for block `b`'s records and takes them; nil when it is never read.
    func wait(_ b: Int) -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while read <= b && !stopped { condition.wait() }
        let records = blocks[b]
        blocks[b] = nil
        return records
    }

    /// Waits until block `b` is read (true) or is never read (false).
    func wasRead(_ b: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while read <= b && !stopped { condition.wait() }
        return read > b
    }

    /// Waits for the reading thread to end; throws its error.
    func finish() throws {
        reading.wait()
        condition.lock()
        defer { condition.unlock() }
        if let error { throw error }
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
