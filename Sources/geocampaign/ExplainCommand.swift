import Foundation
import GeoCampaignCore

/// `geocampaign explain`: a readable timeline of one user.
struct ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Tell, for one user, which visits, rules and decisions happened and why (or why not)."
    static let usage = "geocampaign explain --history FILE --user ID [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [
        .value("user", "ID", "The user to explain (required)."),
        .value("campaign", "ID", "Print only this campaign (decisions are still made with every campaign)."),
        .value("offer", "ID", "Print only the rules and decisions of this offer (decisions are still made with every campaign)."),
        LocalTimeOption.spec,
    ]
    static let example = "geocampaign explain --campaigns campaigns --history examples/visits.jsonl --user carla"

    var history: HistoryOptions
    var user: String
    var filter: ExplainReport.Filter
    var tz: LocalTimeFormat?

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
        guard let u = a.value("user") else { throw CLIError.usage("missing --user ID", Self.usage) }
        user = u
        filter = ExplainReport.Filter(campaign: a.value("campaign"), offer: a.value("offer"))
        tz = try LocalTimeOption.parse(a, usage: Self.usage)
    }

    /// An unknown `--campaign` or `--offer` id is a usage error naming the nearest one.
    func check(_ campaigns: CampaignSet) throws {
        if let c = filter.campaign, !campaigns.campaigns.contains(where: { $0.id == c }) {
            let near = ParsedArguments.nearest(c, campaigns.campaigns.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
            throw CLIError.usage("--campaign '\(c)': no such campaign\(near)", Self.usage)
        }
        if let o = filter.offer {
            let scope = campaigns.campaigns.filter { filter.campaign == nil || $0.id == filter.campaign }
            let offers = scope.flatMap { $0.offers.map(\.id) }
            if !offers.contains(o) {
                let near = ParsedArguments.nearest(o, offers).map { " (did you mean '\($0)'?)" } ?? ""
                throw CLIError.usage("--offer '\(o)': no such offer\(filter.campaign.map { " in campaign \($0)" } ?? "")\(near)", Self.usage)
            }
        }
    }

    func run() throws -> ExitCode {
        var clock = StageClock()
        let campaigns = try CampaignLoading.load(history.campaignPaths).campaignSet
        try check(campaigns)
        clock.lap("campaigns")
        let (h, stats) = try HistoryLoading.read(history, progress: ProgressLine(quiet: history.quiet))
        clock.lap("read")
        guard let index = h.userNumber(of: user) else {
            let near = ParsedArguments.nearest(user, h.userIds).map { " (did you mean '\($0)'?)" } ?? ""
            throw CLIError(message: "user '\(user)' has no accepted fix in the history\(near)", code: .dataError)
        }
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: history.untilMs, threads: 1))
        let sink = try OutputSink(path: history.output)
        let zones = LocalTimeFormat.perCampaign(campaigns, override: tz)
        if let e = replay.explain(userId: user, fixes: h.fixes[index], time: zones) {
            try sink.write(ExplainReport.render(e, campaigns: campaigns, zone: LocalTimeFormat.forSet(campaigns, override: tz),
                                                zones: zones, filter: filter))
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
