import GeoCampaignCore

/// `geocampaign validate`: check campaign files and print problems.
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check campaign files and print every problem with its file, line and column."
    static let usage = "geocampaign validate [PATH ...] [--campaigns PATH]"
    static let options: [OptionSpec] = [
        .value("campaigns", "PATH", "A campaign folder or file, as a PATH argument is.", repeatable: true),
        .flag("quiet", "Print problems only, no summary line."),
    ]
    static let allowsPositionals = true
    static let discussion = "PATH is a campaign folder (every *.yaml and *.yml in it) or a file; default: ./campaigns.\nExit status: 0 when there are no errors (warnings allowed), 65 when there are."
    static let example = "geocampaign validate campaigns"

    var paths: [String]
    var quiet: Bool

    init(_ a: ParsedArguments) throws {
        paths = CampaignPaths.of(a)
        quiet = a.flag("quiet")
    }

    func run() throws -> ExitCode {
        let r = CampaignLoader().load(paths: paths)
        for d in r.diagnostics { Console.err(d.description + "\n") }
        if !quiet { Console.err(r.summary + "\n") }
        try CampaignLoading.check(r)
        return r.hasErrors ? .dataError : .success
    }
}
