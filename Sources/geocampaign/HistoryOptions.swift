import Foundation
import GeoCampaignCore

/// The options shared by the commands that read a history (cli.md "Common options").
extension HistoryOptions {
    static let specs: [OptionSpec] = [
        .value("campaigns", "PATH", "A campaign folder or file (default: ./campaigns).", repeatable: true),
        .value("history", "FILE", "A history: JSON Lines, or GPX by its .gpx extension; '-' reads stdin.", repeatable: true),
        .value("until", "INSTANT", "Replay the history as it stood at this RFC 3339 instant; later fixes are ignored."),
        .value("output", "FILE", "Write data there instead of stdout ('-': stdout); the file is replaced only when the run succeeds."),
        .value("rejects", "FILE", "Write rejected history lines there, one JSON object per line."),
        .flag("strict", "Any rejected history line is fatal (exit 65)."),
        .value("field", "NAME=SOURCE", "Read a canonical history field (user, ts, lat, lon, accuracy) from another key.", repeatable: true),
        .value("threads", "N", "Worker threads (default: all cores)."),
        .flag("quiet", "No summary on stderr."),
    ]

    /// `--state`, `--final`, `--state-info`: stateful runs (state.md 1).
    static let stateSpecs: [OptionSpec] = [
        .value("state", "PATH", "Continue from the state database at PATH (created when missing) and print only what this batch settles (state.md 1)."),
        .flag("final", "With --state: the history is complete; print what is held and close the state."),
        .flag("state-info", "With --state and no --history: print what the state holds (runs, users, campaigns, held decisions, size)."),
    ]

    /// `--sorted`, for the commands that can stream.
    static let sortedSpec = OptionSpec.flag("sorted", "The input is grouped by user (each user's lines together): stream it, memory bounded by the largest user; output follows the input's user order.")

    init(_ a: ParsedArguments, usage: String, requireHistory: Bool = true) throws {
        self.init()
        campaignPaths = a.all("campaigns").isEmpty ? ["campaigns"] : a.all("campaigns")
        historyPaths = a.all("history")
        if requireHistory && historyPaths.isEmpty { throw CLIError.usage("missing --history FILE", usage) }
        if let u = a.value("until") {
            guard let ms = HistoryBuilder.parseRFC3339(u) else {
                throw CLIError.usage("--until '\(u)' is not an RFC 3339 instant such as 2026-03-10T12:00:00Z", usage)
            }
            untilMs = ms
        }
        output = a.value("output")
        rejects = a.value("rejects")
        strict = a.flag("strict")
        quiet = a.flag("quiet")
        let canonical = ["user", "ts", "lat", "lon", "accuracy"]
        for f in a.all("field") {
            let parts = f.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty, canonical.contains(parts[0]) else {
                throw CLIError.usage("--field '\(f)': expected NAME=SOURCE with NAME one of \(canonical.joined(separator: ", "))", usage)
            }
            fieldMap[parts[0]] = parts[1]
        }
        if let t = a.value("threads") {
            guard let n = Int(t), n >= 1, n <= 1024 else { throw CLIError.usage("--threads '\(t)': expected a whole number from 1 to 1024", usage) }
            threads = n
        }
    }
}
