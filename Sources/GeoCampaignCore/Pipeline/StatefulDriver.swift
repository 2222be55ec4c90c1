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

        let hash = try BatchHash.of(paths: history.historyPaths)
        let runs = Int(try store.meta("runs") ?? "0") ?? 0
        if let latest = try store.latestRun(), latest.batch == hash, latest.command == command {
            try writeAgain(latest)
            Console.err("note: this batch was already applied by run \(latest.run) of \(statePath) (at \(latest.at)); its output is written again from the state, and the state is unchanged\n")
            var summary = RunSummary(stats: HistoryStats(), counters: ReplayCounters(), clock: clock, decisions: evaluateRules)
            summary.note = ""
            return summary
        }
        if let at = try store.meta("final_at") {
            throw RunError.data("\(statePath): the state was finalized by run \(try store.meta("final_run") ?? "?") at \(at) (--final); a final state takes no more batches: start a new state")
        }
        if let other = try store.meta("command"), other != command {
            throw RunError.data("\(statePath): the state holds '\(other)' runs; '\(command)' cannot continue it: use another --state")
        }

        // The campaigns load and compile on another thread while the batch is read; their
        // errors win over reading errors, as in a one-shot run.
        let options = Replay.Options(threads: history.threads, evaluateRules: evaluateRules)
        let paths = history.campaignPaths
        let job = BackgroundTask { () -> Result<(CampaignSet, Replay), Error> in
            do {
                let set = try CampaignLoading.load(paths).campaignSet
                return .success((set, Replay(campaigns: set, options: options)))
            } catch {
                return .failure(error)
            }
        }

        // The batch, and (below) the late fixes among it.
        let progress = ProgressLine(quiet: history.quiet)
        var rejects: [RejectedLine] = []
        var batchOptions = history
        batchOptions.rejects = nil
        let read = Result { try HistoryLoading.read(batchOptions, progress: progress, observe: { rejects.append($0) }) }
        let (campaigns, replay) = try job.value.get()
        let (batch, readStats) = try read.get()
        var stats = readStats
        clock.lap("read")

        // Which campaigns continue (state.md 1.3).
        let (entries, campaignOfSlot) = try Self.reconcile(store: store, campaigns: campaigns, runs: runs)
        let reader = try store.userReader()
        var ids = batch.userIds
        var fixes = batch.fixes
        if final {
            var seen = Set(ids)
            for id in try store.userIds() where seen.insert(id).inserted {
                ids.append(id)
                fixes.append([])
            }
        }
        var states: [UserState?] = []
        states.reserveCapacity(ids.count)
        var lateBefore: [String: Int64] = [:]
        var lateCount = 0
        for (i, id) in ids.enumerated() {
            guard let record = try reader.record(id) else { states.append(nil); continue }
            guard let st = UserState.decoded(record, campaignOfSlot: campaignOfSlot, campaignCount: campaigns.campaigns.count) else {
                throw RunError.data("\(statePath): the record of user '\(id)' is damaged; the state cannot be continued")
            }
            if let first = fixes[i].first, first.time < st.tEnd {
                let n = fixes[i].firstIndex { $0.time >= st.tEnd } ?? fixes[i].count
                fixes[i].removeFirst(n)
                lateCount += n
                lateBefore[id] = st.tEnd
            }
            states.append(st)
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

        // The one engine, resumed, on the worker threads; output in byte order of the ids.
        let context = replay.resumeContext()
        let render = makeRender(campaigns)
        let order = Replay.byteOrder(ids)
        let results = Self.resumeAll(replay, ids: ids, fixes: fixes, states: states, order: order, final: final, context: context,
                                     render: render, threads: history.threads)
        clock.lap("replay")

        var output = Array(header.utf8)
        var counters = ReplayCounters()
        let writer = try store.userWriter()
        let slots = entries.map(\.slot)
        for r in results {
            output += r.bytes
            counters.add(r.counters)
            try writer.put(r.id, held: r.state.held, record: r.state.encoded(slots: slots))
        }
        var rejectBytes: [UInt8] = []
        for r in rejects { rejectBytes += RejectsWriter.line(for: r) }

        // Commit: files aside, the database, then the files in place.
        let sink = try OutputSink(path: history.output)
        let rejectsFile = try history.rejects.map { try RejectsWriter(path: $0) }
        for r in rejects { try rejectsFile?.write(r) }
        let toFile = history.output != nil && history.output != "-"
        if toFile { try sink.write(output) }
        try store.setCampaigns(entries)
        let now = Timestamp.string(Int64(Date().timeIntervalSince1970 * 1000))
        try store.addRun(.init(run: runs + 1, at: now, batch: hash, command: command, output: output, rejects: rejectBytes))
        try store.setMeta("runs", String(runs + 1))
        try store.setMeta("command", command)
        if final {
            try store.setMeta("final_at", now)
            try store.setMeta("final_run", String(runs + 1))
        }
        try store.commit()
        committed = true
        if !toFile { try sink.write(output) }
        try sink.close()
        try rejectsFile?.close()
        clock.lap("commit")
        return RunSummary(stats: stats, counters: counters, clock: clock, decisions: evaluateRules)
    }

    /// The state's campaign table for this run's campaigns (state.md 1.3): an unchanged campaign
    /// keeps its slot; a new or changed one gets a new slot and starts afresh (warned on stderr
    /// once the state has runs); a campaign no longer present is dropped (warned).
    /// - Returns: the new table, and the campaign index of every slot that continues.
    static func reconcile(store: StateStore, campaigns: CampaignSet, runs: Int) throws -> ([StateStore.CampaignEntry], [Int: Int]) {
        let known = try store.campaigns()
        var entries: [StateStore.CampaignEntry] = []
        var campaignOfSlot: [Int: Int] = [:]
        var nextSlot = (known.map(\.slot).max() ?? 0) + 1
        for (c, campaign) in campaigns.campaigns.enumerated() {
            let fp = CampaignFingerprint.of(campaign, settings: campaigns.settings)
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

    /// One user's result.
    struct UserResult: Sendable {
        var id: String
        var bytes: [UInt8]
        var counters: ReplayCounters
        var state: UserState
    }

    /// Resumes every user on `threads` threads; results in `order`.
    static func resumeAll(_ replay: Replay, ids: [String], fixes: [[Fix]], states: [UserState?], order: [Int], final: Bool,
                          context: Replay.ResumeContext, render: @escaping @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8],
                          threads: Int) -> [UserResult] {
        let blockSize = 256
        let blocks = (order.count + blockSize - 1) / blockSize
        let slots = ResultSlots(count: order.count)
        let workers = max(1, min(threads, blocks))
        let next = BlockQueue(count: blocks)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let (evaluators, arbiter) = w == 0 ? (replay.evaluators, replay.arbiter) : replay.workerCopies()
            while let b = next.take() {
                for k in (b * blockSize)..<min(order.count, (b + 1) * blockSize) {
                    let i = order[k]
                    guard let r = replay.resume(userId: ids[i], state: states[i], batch: fixes[i], final: final, context: context,
                                                evaluators: evaluators, arbiter: arbiter) else { continue }
                    var counters = ReplayCounters()
                    var counted = r.outcome
                    counted.visits = counted.visits.map { $0.filter { v in v.enter >= counted.eventsFrom && v.enter < counted.eventsBefore } }
                    let bytes = render(r.outcome, &counters)
                    counters.visits = counted.visits.reduce(0) { $0 + $1.count }
                    counters.events = r.events
                    slots.set(k, UserResult(id: ids[i], bytes: bytes, counters: counters, state: r.state))
                }
                next.finish(b, bytes: [], counters: ReplayCounters())
            }
        }
        return slots.all()
    }
}

/// Results written by index from several threads.
private final class ResultSlots: @unchecked Sendable {
    private var items: [StatefulDriver.UserResult?]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ r: StatefulDriver.UserResult) {
        lock.lock()
        items[k] = r
        lock.unlock()
    }
    func all() -> [StatefulDriver.UserResult] { items.compactMap { $0 } }
}
