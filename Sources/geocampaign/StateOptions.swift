import GeoCampaignCore

/// `--state`, `--final` and `--state-info` of `evaluate` and `events` (cli.md, state.md 1):
/// which driver runs the command, one-shot or stateful.
struct StateOptions {
    var path: String?
    var final: Bool
    var info: Bool

    init(_ a: ParsedArguments, usage: String) throws {
        path = a.value("state")
        final = a.flag("final")
        info = a.flag("state-info")
        if path == nil && (final || info) { throw CLIError.usage("--\(final ? "final" : "state-info") needs --state PATH", usage) }
        if info && !a.all("history").isEmpty { throw CLIError.usage("--state-info takes no --history: it only reads the state", usage) }
    }

    /// Option combinations a stateful run does not take.
    func check(_ driver: ReplayDriver, usage: String) throws {
        guard path != nil, !info else { return }
        if driver.sorted { throw CLIError.usage("--sorted cannot be combined with --state", usage) }
        if driver.history.untilMs != nil { throw CLIError.usage("--until cannot be combined with --state: the state's batches are the history", usage) }
        if driver.history.historyPaths.contains("-") {
            throw CLIError.usage("--state needs --history FILE: a batch is a file (it is hashed to recognise a repeated batch); for standard input use 'geocampaign stream'", usage)
        }
    }

    /// Runs the one-shot driver, or the stateful one with `--state`.
    func run(_ driver: ReplayDriver, command: String,
             _ makeRender: (CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8]) throws -> RunSummary {
        guard let path else { return try driver.run(makeRender) }
        return try StatefulDriver(history: driver.history, statePath: path, final: final, command: command,
                                  evaluateRules: driver.evaluateRules, header: driver.header).run(makeRender)
    }

    /// `--state-info`: prints the report on stdout.
    func printInfo() throws -> ExitCode {
        print(try StateInfo.text(path: path ?? ""), terminator: "")
        return .success
    }
}
