import Foundation
import GeoCampaignCore

/// `geocampaign stream`: decide live as fixes arrive (state.md 2).
struct StreamCommand: Command {
    static let name = "stream"
    static let abstract = "Decide live: read fixes as they arrive and print each decision as soon as it is settled."
    static let usage = "geocampaign stream --state PATH [--history FILE|-] [--follow] [--output FILE] [options]"
    static let options: [OptionSpec] = [
        .value("state", "PATH", "The state database (required; the same as batch runs use; held by this stream until it ends, through PATH-lock)."),
        .value("campaigns", "PATH", "A campaign folder or file (default: ./campaigns).", repeatable: true),
        .value("history", "FILE", "Read this file ('-' or none: standard input, a pipe)."),
        .flag("follow", "Keep reading the --history file as it grows, as tail -f does."),
        .value("output", "FILE", "Append decisions there (cut back to the committed length at start: each decision once across crashes)."),
        .value("rejects", "FILE", "Append rejected lines there (late ones included)."),
        .value("commit-every", "DURATION", "Commit the state at least this often (default: 1s)."),
        .value("idle-after", "DURATION", "Drop a user from memory after this much stream time without a fix; their next fix loads them back (default: the campaigns' longest gap, window or cap period; 'never': keep every user)."),
        .value("field", "NAME=SOURCE", "Read a canonical history field (user, ts, lat, lon, accuracy) from another key.", repeatable: true),
        .flag("include-suppressed", "Print every decision status, not only delivered."),
        .flag("state-info", "Print what the state holds (with the committed line count) and exit."),
        .flag("quiet", "No summary on stderr."),
    ]
    static let example = "tail -F /var/log/fixes.jsonl | geocampaign stream --state state.db --campaigns campaigns"

    var history: HistoryOptions
    var state: String
    var follow: Bool
    var commitEveryMs: Int64
    var idleAfterMs: Int64?
    var includeSuppressed: Bool
    var info: Bool

    init(_ a: ParsedArguments) throws {
        guard let s = a.value("state") else { throw CLIError.usage("missing --state PATH", Self.usage) }
        state = s
        info = a.flag("state-info")
        var args: [String] = []
        for c in a.all("campaigns") { args += ["--campaigns", c] }
        for f in a.all("field") { args += ["--field", f] }
        if let o = a.value("output") { args += ["--output", o] }
        if let r = a.value("rejects") { args += ["--rejects", r] }
        if a.flag("quiet") { args.append("--quiet") }
        history = try HistoryOptions(try ParsedArguments(args, specs: HistoryOptions.specs, usage: Self.usage, allowsPositionals: false),
                                     usage: Self.usage, requireHistory: false)
        history.historyPaths = a.value("history").map { [$0] } ?? []
        follow = a.flag("follow")
        if follow && (history.historyPaths.isEmpty || history.historyPaths == ["-"]) {
            throw CLIError.usage("--follow needs --history FILE (a regular file that grows)", Self.usage)
        }
        let every = a.value("commit-every") ?? "1s"
        guard let ms = StreamDriver.commitInterval(every) else {
            throw CLIError.usage("--commit-every '\(every)': expected a positive duration such as 500ms, 1s, 30s or 2m", Self.usage)
        }
        commitEveryMs = ms
        if let idle = a.value("idle-after") {
            guard let ms = StreamDriver.idleInterval(idle) else {
                throw CLIError.usage("--idle-after '\(idle)': expected a duration such as 30m or 2d, or 'never'", Self.usage)
            }
            idleAfterMs = ms
        }
        includeSuppressed = a.flag("include-suppressed")
    }

    func run() throws -> ExitCode {
        if info {
            print(try StateInfo.text(path: state), terminator: "")
            return .success
        }
        let writer = DecisionsWriter(format: .jsonl, includeSuppressed: includeSuppressed)
        var driver = StreamDriver(history: history, statePath: state, follow: follow, commitEveryMs: commitEveryMs)
        driver.idleAfterMs = idleAfterMs
        let summary = try driver.run { campaigns in
            let prepared = writer.prepared(for: campaigns)
            return { o, c in
                c.count(o, campaigns: campaigns)
                var out: [UInt8] = []
                prepared.append(o, to: &out)
                return out
            }
        }
        if !history.quiet { Console.err(summary.text) }
        return .success
    }
}
