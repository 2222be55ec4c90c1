import Foundation
import GeoCampaignCore

/// `geocampaign evaluate`: replay histories and print decisions.
struct EvaluateCommand: Command {
    static let name = "evaluate"
    static let abstract = "Replay location histories through the campaigns and print every decision."
    static let usage = "geocampaign evaluate --history FILE [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [
        .flag("include-suppressed", "Print every decision status (held_out, capped, lower_priority, limited), not only delivered."),
        .value("format", "jsonl|csv", "Output format (default: jsonl)."),
    ]
    static let example = "geocampaign evaluate --campaigns campaigns --history examples/visits.jsonl"

    var history: HistoryOptions
    var writer: DecisionsWriter

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
        let f = a.value("format") ?? "jsonl"
        guard let format = DecisionFormat(rawValue: f) else {
            throw CLIError.usage("--format '\(f)': expected jsonl or csv", Self.usage)
        }
        writer = DecisionsWriter(format: format, includeSuppressed: a.flag("include-suppressed"))
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        clock.lap("campaigns")
        let (h, stats) = try HistoryLoading.read(history)
        clock.lap("read")
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: history.untilMs, threads: history.threads))
        let sink = try OutputSink(path: history.output)
        let progress = ProgressLine(quiet: history.quiet)
        if writer.format == .csv { try sink.write(DecisionsWriter.csvHeader) }
        let writer = self.writer
        let counters = try replay.run(history: h, render: { o, c in
            c.count(o, campaigns: campaigns)
            var out: [UInt8] = []
            writer.append(o, campaigns: campaigns, to: &out)
            return out
        }, sink: sink.write, progress: { users, all, fixes in
            progress.rate("replay", fixes: fixes, fraction: Double(users) / Double(max(1, all)))
        })
        progress.finish()
        try sink.close()
        clock.lap("replay")
        if !history.quiet { Summary.print(stats: stats, counters: counters, clock: clock, decisions: true) }
        return .success
    }
}
