import Foundation
import GeoCampaignCore

/// The options shared by the commands that read a history (cli.md "Common options").
extension HistoryOptions {
    static let specs: [OptionSpec] = [
        .value("campaigns", "PATH", "A campaign folder or file (default: ./campaigns).", repeatable: true),
        .value("history", "FILE", "A history: JSON Lines, CSV by its .csv extension or GPX by its .gpx extension; '-' reads stdin.", repeatable: true),
        .value("history-format", "jsonl|csv", "Read every --history (stdin included) in this format, whatever its extension."),
        .value("ts-format", "epoch_s|epoch_ms", "What a numeric timestamp counts: seconds (default) or milliseconds since 1970; RFC 3339 text is read either way."),
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
        .value("state", "PATH", "Continue from the state database at PATH (created when missing; PATH-wal, PATH-shm and PATH-lock beside it belong to it: docs/state.md) and print only what this batch settles (state.md 1)."),
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
        output = a.value("output").flatMap { $0 == "-" ? nil : $0 }
        rejects = a.value("rejects")
        try Self.refuseClashes(history: historyPaths, campaigns: campaignPaths, output: output, rejects: rejects, usage: usage)
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
        if let f = a.value("history-format") {
            guard let format = HistoryFormat(rawValue: f), format != .gpx else {
                throw CLIError.usage("--history-format '\(f)': expected jsonl or csv", usage)
            }
            baseFields.format = format
        }
        if let t = a.value("ts-format") {
            guard let unit = EpochUnit(rawValue: t) else {
                throw CLIError.usage("--ts-format '\(t)': expected epoch_s or epoch_ms", usage)
            }
            baseFields.epochUnit = unit
        }
        if let t = a.value("threads") {
            guard let n = Int(t), n >= 1, n <= 1024 else { throw CLIError.usage("--threads '\(t)': expected a whole number from 1 to 1024", usage) }
            threads = n
        }
    }

    /// Refuses an output that is the same file as an input (a history or campaign file) or as the
    /// other output, compared by device and inode: writing it would destroy what is being read.
    static func refuseClashes(history: [String], campaigns: [String], output: String?, rejects: String?, usage: String) throws {
        var inputs = history.map { (role: "--history", path: $0) }
        for c in campaigns {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: c, isDirectory: &isDir), isDir.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: c)) ?? []
                inputs += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { (role: "--campaigns", path: c + "/" + $0) }
            } else {
                inputs.append((role: "--campaigns", path: c))
            }
        }
        let outputs = [("--output", output), ("--rejects", rejects)].compactMap { r, p in p.map { (role: r, path: $0) } }
        if let clash = FileIdentity.firstClash(inputs: inputs, outputs: outputs) {
            throw CLIError.usage("\(clash.written.role) '\(clash.written.path)' is the same file as \(clash.other.role) '\(clash.other.path)': refusing to overwrite it; name another file", usage)
        }
    }
}
