import Foundation
import GeoCampaignCore

/// `geocampaign events`: print enter/exit events only.
struct EventsCommand: Command {
    static let name = "events"
    static let abstract = "Replay location histories and print every enter and exit of every region."
    static let usage = "geocampaign events --history FILE [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [HistoryOptions.sortedSpec]
    static let example = "geocampaign events --campaigns campaigns --history examples/visits.jsonl --rejects rejects.jsonl"

    var driver: ReplayDriver

    init(_ a: ParsedArguments) throws {
        driver = ReplayDriver(history: try HistoryOptions(a, usage: Self.usage), sorted: a.flag("sorted"), evaluateRules: false)
    }

    func run() throws -> ExitCode {
        let summary = try driver.run { campaigns in
            let writer = EventsWriter(campaigns: campaigns)
            return { o, c in
                c.count(o, campaigns: campaigns)
                var out: [UInt8] = []
                writer.append(o, to: &out)
                return out
            }
        }
        if !driver.history.quiet { Console.err(summary.text) }
        return .success
    }
}
