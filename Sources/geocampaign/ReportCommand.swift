import Foundation
import GeoCampaignCore

/// `geocampaign report`: reach and holdout lift (measurement.md), as one HTML file or JSON.
struct ReportCommand: Command {
    static let name = "report"
    static let abstract = "Measure reach and holdout lift, and write them as one HTML page with a map (or JSON)."
    static let usage = "geocampaign report --history FILE [--campaigns PATH] [--format html|json] [--output FILE] [--user ID] [options]"
    static let options = HistoryOptions.specs + [
        .value("format", "html|json", "Output format (default: html, one self-contained page)."),
        .value("user", "ID", "html: draw this user's track, visits and decisions on the map."),
        LocalTimeOption.spec,
    ]
    static let example = "geocampaign report --campaigns campaigns --history examples/visits.jsonl --output report.html"

    /// The output formats.
    enum Format: String {
        case html, json
    }

    var history: HistoryOptions
    var format: Format
    var user: String?
    var tz: LocalTimeFormat?

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
        let f = a.value("format") ?? "html"
        guard let format = Format(rawValue: f) else { throw CLIError.usage("--format '\(f)': expected html or json", Self.usage) }
        self.format = format
        user = a.value("user")
        tz = try LocalTimeOption.parse(a, usage: Self.usage)
    }

    func validate() throws {
        if user != nil && format == .json {
            throw CLIError.usage("--user draws a user on the HTML report's map; it does not apply to --format json", Self.usage)
        }
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let paths = history.campaignPaths
        let options = Replay.Options(untilMs: history.untilMs, threads: history.threads)
        // The campaigns load and compile while the history is read; their errors are told first
        // (the gate), and the progress line waits until their diagnostics are printed.
        let progress = ProgressLine(quiet: history.quiet)
        progress.hold()
        let job = BackgroundTask { () -> Result<(CampaignSet, Replay), Error> in
            let loaded = Result { try CampaignLoading.load(paths).campaignSet }
            progress.release()
            return loaded.map { ($0, Replay(campaigns: $0, options: options)) }
        }
        let (h, stats) = try HistoryLoading.read(history, progress: progress, gate: { _ = try job.value.get() })
        clock.lap("read")
        let (campaigns, replay) = try job.value.get()
        var shown: ReportUser?
        var userIndex: Int?
        if let user {
            guard let i = h.userNumber(of: user) else {
                let near = ParsedArguments.nearest(user, h.userIds).map { " (did you mean '\($0)'?)" } ?? ""
                throw CLIError(message: "user '\(user)' has no accepted fix in the history\(near)", code: .dataError)
            }
            userIndex = i
        }
        let collector = MeasurementCollector(plan: MeasurementPlan(campaigns: campaigns))
        let counters = replay.run(history: h, render: { o, c in
            c.count(o, campaigns: campaigns)
            collector.add(o)
            return []
        }, sink: { _ in })
        if let i = userIndex, let o = replay.outcome(userId: h.userIds[i], fixes: h.fixes[i]) {
            shown = ReportUser(outcome: o, fixes: Array(h.fixes[i].prefix(o.fixCount)))
        }
        clock.lap("replay")
        let measurement = collector.measurement(lines: stats.linesRead)
        let bytes = format == .json ? ReportJSON.render(measurement)
            : ReportHTML.render(measurement, campaigns: campaigns, user: shown, zone: tz)
        let sink = try OutputSink(path: history.output)
        try sink.write(bytes)
        try sink.close()
        clock.lap("report")
        if !history.quiet { Console.err(Summary.text(stats: stats, counters: counters, clock: clock, decisions: true)) }
        return .success
    }
}
