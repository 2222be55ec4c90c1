import GeoCampaignCore

/// `--tz ZONE`, shared by the commands that write times for a person (`explain`, `simulate`, `test`).
enum LocalTimeOption {
    static let spec = OptionSpec.value("tz", "ZONE", "Write times in this IANA zone, e.g. Europe/Zurich (default: the campaign's active.timezone, else its during zone, else UTC).")

    /// The zone of `--tz`, nil when not given; an unknown zone name is a usage error.
    static func parse(_ a: ParsedArguments, usage: String) throws -> LocalTimeFormat? {
        guard let name = a.value("tz") else { return nil }
        guard let f = LocalTimeFormat(zone: name) else {
            let shown = name.count > 64 ? String(name.prefix(64)) + "..." : name
            throw CLIError.usage("--tz '\(shown)' is not an IANA time zone name such as Europe/Zurich or America/Los_Angeles (a fixed offset such as UTC+1 is an hour off every summer; Etc/GMT-1 is UTC+1 on purpose)", usage)
        }
        return f
    }
}
