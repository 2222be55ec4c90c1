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
        HistoryOptions.sortedSpec,
    ] + HistoryOptions.stateSpecs
    static let example = "geocampaign evaluate --campaigns campaigns --history examples/visits.jsonl"

    var driver: ReplayDriver
    var writer: DecisionsWriter
    var state: StateOptions

    init(_ a: ParsedArguments) throws {
        let f = a.value("format") ?? "jsonl"
        guard let format = DecisionFormat(rawValue: f) else {
            throw CLIError.usage("--format '\(f)': expected jsonl or csv", Self.usage)
        }
        writer = DecisionsWriter(format: format, includeSuppressed: a.flag("include-suppressed"))
        state = try StateOptions(a, usage: Self.usage)
        driver = ReplayDriver(history: try HistoryOptions(a, usage: Self.usage, requireHistory: !state.info), sorted: a.flag("sorted"), evaluateRules: true,
                              header: format == .csv ? DecisionsWriter.csvHeader : "")
        try state.check(driver, usage: Self.usage)
    }

    func run() throws -> ExitCode {
        let writer = self.writer
        if state.info { return try state.printInfo() }
        let summary = try state.run(driver, command: Self.name) { campaigns in
            let prepared = writer.prepared(for: campaigns)
            return { o, c in
                c.count(o, campaigns: campaigns)
                var out: [UInt8] = []
                prepared.append(o, to: &out)
                return out
            }
        }
        if !driver.history.quiet { Console.err(summary.text) }
        return .success
    }
}
