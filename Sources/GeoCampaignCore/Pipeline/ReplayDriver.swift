import Foundation

/// The one-shot run shared by `evaluate` and `events`: load campaigns, read (or stream, with
/// `--sorted`) the histories, replay on the worker threads, write the rendered output. The
/// output and rejects files are put in place together at the end, only when the run succeeds.
public struct ReplayDriver {
    /// What to read and where to write.
    public var history: HistoryOptions
    /// Input declared grouped by user: stream it user by user, output in input order.
    public var sorted: Bool
    /// Compute rules and decisions (false for `events`).
    public var evaluateRules: Bool
    /// Bytes written before the data (the CSV header).
    public var header: String = ""

    /// Creates a driver.
    public init(history: HistoryOptions, sorted: Bool, evaluateRules: Bool, header: String = "") {
        self.history = history
        self.sorted = sorted
        self.evaluateRules = evaluateRules
        self.header = header
    }

    /// How many bytes of output a run writes between syncs of its output file
    /// (`OutputSink.syncEvery`): the sync at the end then waits for at most this many.
    static let syncEvery = 8 << 20

    /// Runs and returns what it counted; `makeRender` builds the per-user renderer once the
    /// campaigns are loaded. Errors are `RunError`s.
    public func run(_ makeRender: (CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]) throws -> RunSummary {
        var clock = StageClock()
        let files = PendingFiles()
        let progress = ProgressLine(quiet: history.quiet)
        let options = Replay.Options(untilMs: history.untilMs, threads: history.threads, evaluateRules: evaluateRules)
        let stats: HistoryStats
        let counters: ReplayCounters
        let sink: OutputSink
        if sorted {
            // The stream starts at once and needs the compiled campaigns, so they are loaded and
            // compiled first, on this thread, where compiling reuses the memory the loader freed.
            let job = CampaignJob(paths: history.campaignPaths, options: options, inBackground: false)
            let (campaigns, replay) = try job.wait()
            clock.lap("campaigns")
            let render = makeRender(campaigns)
            sink = try OutputSink(path: history.output)
            sink.syncEvery = ReplayDriver.syncEvery
            try sink.write(header)
            var streamed = HistoryStats()
            let history = self.history
            counters = try replay.runStreaming(produce: { emit in
                try withoutActuallyEscaping(emit) { emit in
                    streamed = try HistoryLoading.stream(history, progress: progress, files: files, onUser: emit)
                }
            }, render: render, sink: sink.write)
            stats = streamed
            progress.finish()
            clock.lap("read+replay")
        } else {
            // The campaigns load and compile on another thread while the history is read. Nothing
            // is written and no reading error is told before they have loaded: the gate waits for
            // them (their errors win), then opens the output, as when they were loaded first.
            progress.hold()
            let job = CampaignJob(paths: history.campaignPaths, options: options, inBackground: true, loaded: { progress.release() })
            var opened: OutputSink?
            let output = history.output, header = self.header
            let gate = { () throws -> OutputSink in
                _ = try job.wait()
                if let opened { return opened }
                let s = try OutputSink(path: output)
                s.syncEvery = ReplayDriver.syncEvery
                try s.write(header)
                opened = s
                return s
            }
            let (h, s) = try HistoryLoading.readPacked(history, progress: progress, gate: { _ = try gate() }, files: files)
            stats = s
            clock.lap("read")
            sink = try gate()
            let (campaigns, replay) = try job.wait()
            clock.record("campaigns", seconds: job.loadSeconds, during: "read")
            counters = try replay.run(input: h, render: makeRender(campaigns), sink: sink.write, progress: { users, all, fixes in
                progress.rate("replay", fixes: fixes, fraction: Double(users) / Double(max(1, all)))
            })
            progress.finish()
        }
        try sink.close()
        try files.commit()
        clock.lap(sorted ? "write" : "replay")
        return RunSummary(stats: stats, counters: counters, clock: clock, decisions: evaluateRules)
    }
}

/// Loads the campaigns (printing their diagnostics on stderr) and compiles the replay, on a
/// thread of its own or on the calling one; `wait` returns both or throws the loading error.
/// Not on a worker of the global queue: the loading's own steps run there, and while the
/// history is read its parts keep the other workers busy.
private final class CampaignJob: Sendable {
    private let task: BackgroundTask<(Result<(CampaignSet, Replay), Error>, loadSeconds: Double)>

    /// Starts the job; `loaded` is called once the campaigns' diagnostics have been printed.
    init(paths: [String], options: Replay.Options, inBackground: Bool, loaded: @escaping @Sendable () -> Void = {}) {
        task = BackgroundTask(inBackground ? .ownThread("campaigns") : .here) {
            let start = Date()
            let campaigns: CampaignSet
            do {
                campaigns = try CampaignLoading.load(paths).campaignSet
            } catch {
                loaded()
                return (.failure(error), Date().timeIntervalSince(start))
            }
            let seconds = Date().timeIntervalSince(start)
            loaded()
            return (.success((campaigns, Replay(campaigns: campaigns, options: options))), seconds)
        }
    }

    /// Seconds spent loading the campaigns (not compiling them); waits for the job.
    var loadSeconds: Double { task.value.loadSeconds }

    func wait() throws -> (CampaignSet, Replay) {
        try task.value.0.get()
    }
}
