import Foundation
import GeoCampaignCore

/// The run shared by `evaluate` and `events`: load campaigns, read (or stream, with `--sorted`)
/// the histories, replay on the worker threads, write the rendered output, print the summary.
struct ReplayDriver {
    var history: HistoryOptions
    /// Input declared grouped by user: stream it user by user, output in input order.
    var sorted: Bool
    /// Compute rules and decisions (false for `events`).
    var evaluateRules: Bool
    /// Bytes written before the data (the CSV header).
    var header: String = ""

    /// Runs and returns the exit status; `makeRender` builds the per-user renderer once the campaigns are loaded.
    func run(_ makeRender: (CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]) throws -> ExitCode {
        var clock = StageClock()
        let progress = ProgressLine(quiet: history.quiet)
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        clock.lap("campaigns")
        // Compiling the regions and rules does not depend on the history: it runs while the history is read.
        // (With --sorted the stream starts at once, so it is compiled here, on this thread, where it
        // reuses the memory the loader freed.)
        let compiled = Compiled(campaigns, .init(untilMs: history.untilMs, threads: history.threads, evaluateRules: evaluateRules),
                                inBackground: !sorted)
        let render = makeRender(campaigns)
        let sink = try OutputSink(path: history.output)
        try sink.write(header)
        let stats: HistoryStats
        let counters: ReplayCounters
        if sorted {
            var streamed = HistoryStats()
            let history = self.history
            counters = try compiled.replay.runStreaming(produce: { emit in
                try withoutActuallyEscaping(emit) { emit in
                    streamed = try HistoryLoading.stream(history, progress: progress, onUser: emit)
                }
            }, render: render, sink: sink.write)
            stats = streamed
            progress.finish()
            clock.lap("read+replay")
        } else {
            let (h, s) = try HistoryLoading.read(history, progress: progress)
            stats = s
            clock.lap("read")
            counters = try compiled.replay.run(history: h, render: render, sink: sink.write, progress: { users, all, fixes in
                progress.rate("replay", fixes: fixes, fraction: Double(users) / Double(max(1, all)))
            })
            progress.finish()
        }
        try sink.close()
        clock.lap(sorted ? "write" : "replay")
        if !history.quiet { Summary.print(stats: stats, counters: counters, clock: clock, decisions: evaluateRules) }
        return .success
    }
}

/// A `Replay` compiled on a background thread; `replay` waits for it.
private final class Compiled: @unchecked Sendable {
    private let done = DispatchGroup()
    private var value: Replay?
    private let campaigns: CampaignSet
    private let options: Replay.Options

    init(_ campaigns: CampaignSet, _ options: Replay.Options, inBackground: Bool) {
        self.campaigns = campaigns
        self.options = options
        guard inBackground else {
            value = Replay(campaigns: campaigns, options: options)
            return
        }
        done.enter()
        DispatchQueue.global().async {
            self.value = Replay(campaigns: campaigns, options: options)
            self.done.leave()
        }
    }

    var replay: Replay {
        done.wait()
        return value ?? Replay(campaigns: campaigns, options: options)
    }
}
