import Foundation
import GeoCampaignCore

/// `geocampaign simulate`: play one GPX track and print what happens.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let abstract = "Play one GPX track as one user and print its events and decisions in time order."
    static let usage = "geocampaign simulate --gpx FILE [--campaigns PATH] [options]"
    static let options: [OptionSpec] = [
        .value("gpx", "FILE", "The GPX track (trkpt, rtept and wpt points, in document order)."),
        .value("campaigns", "PATH", "A campaign folder or file (default: ./campaigns).", repeatable: true),
        .value("user", "NAME", "The user id (default: the file name without extension)."),
        .value("start", "INSTANT", "For a file without times: the time of the first point; points are 1 s apart (default 2000-01-01T00:00:00Z)."),
        .value("until", "INSTANT", "Ignore points after this instant."),
        .flag("include-suppressed", "Also print suppressed decisions (held_out, capped, lower_priority, limited)."),
        .flag("quiet", "No summary on stderr."),
        LocalTimeOption.spec,
    ]
    static let example = "geocampaign simulate --campaigns campaigns --gpx examples/lorrenzillos-dinner.gpx"

    var history: HistoryOptions
    var user: String?
    var startMs: Int64?
    var includeSuppressed: Bool
    var tz: LocalTimeFormat?

    init(_ a: ParsedArguments) throws {
        guard let gpx = a.value("gpx") else { throw CLIError.usage("missing --gpx FILE", Self.usage) }
        guard gpx.lowercased().hasSuffix(".gpx") else { throw CLIError.usage("--gpx '\(gpx)': expected a .gpx file", Self.usage) }
        var args = ["--history", gpx]
        for c in a.all("campaigns") { args += ["--campaigns", c] }
        if let u = a.value("until") { args += ["--until", u] }
        if a.flag("quiet") { args.append("--quiet") }
        history = try HistoryOptions(try ParsedArguments(args, specs: HistoryOptions.specs, usage: Self.usage, allowsPositionals: false), usage: Self.usage)
        user = a.value("user")
        if let s = a.value("start") {
            guard let ms = HistoryBuilder.parseRFC3339(s) else {
                throw CLIError.usage("--start '\(s)' is not an RFC 3339 instant such as 2026-03-10T12:00:00Z", Self.usage)
            }
            startMs = ms
        }
        includeSuppressed = a.flag("include-suppressed")
        tz = try LocalTimeOption.parse(a, usage: Self.usage)
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        clock.lap("campaigns")
        let (h, stats) = try HistoryLoading.read(history, gpxUser: user, gpxStartMs: startMs)
        clock.lap("read")
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: history.untilMs, threads: 1))
        var counters = ReplayCounters()
        let time = LocalTimeFormat.forSet(campaigns, override: tz)
        let sink = try OutputSink(path: nil)
        for (i, id) in h.userIds.enumerated() {
            guard let o = replay.outcome(userId: id, fixes: h.fixes[i]) else { continue }
            counters.count(o, campaigns: campaigns)
            // Suppressed decisions are printed with their reason (arbitration run again, with words).
            let reasons = includeSuppressed ? replay.explain(userId: id, fixes: h.fixes[i])?.decisions.map {
                DecisionReasonText.text($0, campaigns: campaigns, time: time)
            } : nil
            let lines = Timeline.lines(o, campaigns: campaigns, includeSuppressed: includeSuppressed, time: time, reasons: reasons)
            if lines.isEmpty {
                try sink.write("\(time.string(o.t0))  nothing happened: \(o.fixCount) point\(o.fixCount == 1 ? "" : "s") up to \(time.string(o.tEnd)), no region entered and no offer decided\n")
            }
            try sink.write(lines.joined())
        }
        try sink.close()
        clock.lap("replay")
        if !history.quiet { Console.err(Summary.text(stats: stats, counters: counters, clock: clock, decisions: true)) }
        return .success
    }
}
