import Foundation
import GeoCampaignCore

/// `geocampaign explain`: a readable timeline of one user.
struct ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Tell, for one user, which visits, rules and decisions happened and why (or why not)."
    static let usage = "geocampaign explain --history FILE --user ID [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [.value("user", "ID", "The user to explain (required).")]
    static let example = "geocampaign explain --campaigns campaigns --history examples/visits.jsonl --user carla"

    var history: HistoryOptions
    var user: String

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
        guard let u = a.value("user") else { throw CLIError.usage("missing --user ID", Self.usage) }
        user = u
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        clock.lap("campaigns")
        let (h, stats) = try HistoryLoading.read(history, progress: ProgressLine(quiet: history.quiet))
        clock.lap("read")
        guard let index = h.userIds.firstIndex(of: user) else {
            let near = ParsedArguments.nearest(user, h.userIds).map { " (did you mean '\($0)'?)" } ?? ""
            throw CLIError(message: "user '\(user)' has no accepted fix in the history\(near)", code: .dataError)
        }
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: history.untilMs, threads: 1))
        let sink = try OutputSink(path: history.output)
        if let e = replay.explain(userId: user, fixes: h.fixes[index]) {
            try sink.write(ExplainReport.render(e, campaigns: campaigns))
        } else {
            try sink.write("user \(user): no fix before --until; nothing to explain\n")
        }
        try sink.close()
        clock.lap("replay")
        if !history.quiet {
            Console.err("lines read: \(stats.linesRead), fixes accepted: \(stats.fixesAccepted), users: \(h.userIds.count)\n"
                        + String(format: "wall time: %.3f s", clock.total) + " (" + clock.line + ")\n")
        }
        return .success
    }
}
