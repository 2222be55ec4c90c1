import Foundation
import GeoCampaignCore

/// `geocampaign events`: print enter/exit events only.
struct EventsCommand: Command {
    static let name = "events"
    static let abstract = "Replay location histories and print every enter and exit of every region."
    static let usage = "geocampaign events --history FILE [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [HistoryOptions.sortedSpec] + HistoryOptions.stateSpecs
    static let example = "geocampaign events --campaigns campaigns --history examples/visits.jsonl --rejects rejects.jsonl"

    var driver: ReplayDriver
    var state: StateOptions

    init(_ a: ParsedArguments) throws {
        state = try StateOptions(a, usage: Self.usage)
        driver = ReplayDriver(history: try HistoryOptions(a, usage: Self.usage, requireHistory: !state.info), sorted: a.flag("sorted"), evaluateRules: false)
        try state.check(driver, usage: Self.usage)
    }

    func run() throws -> ExitCode {
        if state.info { return try state.printInfo() }
        let summary = try state.run(driver, command: Self.name) { campaigns in
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
