import Foundation
import GeoCampaignCore

/// `geocampaign events`: print enter/exit events only.
struct EventsCommand: Command {
    static let name = "events"
    static let abstract = "Replay location histories and print every enter and exit of every region."
    static let usage = "geocampaign events --history FILE [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs
    static let example = "geocampaign events --campaigns campaigns --history examples/visits.jsonl --rejects rejects.jsonl"

    var history: HistoryOptions

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        clock.lap("campaigns")
        let (h, stats) = try HistoryLoading.read(history)
        clock.lap("read")
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: history.untilMs, threads: history.threads, evaluateRules: false))
        let sink = try OutputSink(path: history.output)
        let progress = ProgressLine(quiet: history.quiet)
        let writer = EventsWriter(campaigns: campaigns)
        let counters = try replay.run(history: h, render: { o, c in
            c.count(o, campaigns: campaigns)
            var out: [UInt8] = []
            writer.append(o, to: &out)
            return out
        }, sink: sink.write, progress: { users, all, fixes in
            progress.rate("replay", fixes: fixes, fraction: Double(users) / Double(max(1, all)))
        })
        progress.finish()
        try sink.close()
        clock.lap("replay")
        if !history.quiet { Summary.print(stats: stats, counters: counters, clock: clock, decisions: false) }
        return .success
    }
}
