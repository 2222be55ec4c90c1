import GeoCampaignCore

/// `geocampaign test`: run campaign tests (docs/testing-campaigns.md) and print like a test runner.
struct TestCommand: Command {
    static let name = "test"
    static let abstract = "Run campaign tests: histories with the decisions and visits they must (not) give."
    static let usage = "geocampaign test [FILE|DIR ...] [--junit FILE] [--tz ZONE]"
    static let options: [OptionSpec] = [
        .value("junit", "FILE", "Also write the results as JUnit XML there, for CI systems."),
        LocalTimeOption.spec,
        .flag("quiet", "Print failures, problems and the summary only, not the cases that passed."),
    ]
    static let allowsPositionals = true
    static let discussion = "FILE is a test file (YAML); DIR holds them (every *.yaml and *.yml in it and below); default: ./tests.\nExit status: 0 when every case passed, 1 when one failed, 65 when a test file or a campaign it names is broken."
    static let example = "geocampaign test campaigns/tests"

    var paths: [String]
    var junit: String?
    var tz: LocalTimeFormat?
    var quiet: Bool

    init(_ a: ParsedArguments) throws {
        paths = a.positionals.isEmpty ? ["tests"] : a.positionals
        junit = a.value("junit")
        tz = try LocalTimeOption.parse(a, usage: Self.usage)
        quiet = a.flag("quiet")
    }

    func run() throws -> ExitCode {
        let (files, missing) = CampaignTestRunner.files(paths)
        for m in missing { Console.err("\(m): error: no such test file or folder: check the path\n") }
        if !missing.isEmpty { throw CLIError.silent(.noInput) }
        if files.isEmpty { throw CLIError.noInput(paths.joined(separator: " "), "holds no *.yaml or *.yml test files") }
        try refuseClash(files.map { (role: "test file", path: $0) })
        let runner = CampaignTestRunner(zoneOverride: tz)
        let sink = try OutputSink(path: nil)
        var results: [CampaignTestFileResult] = []
        for f in files {
            let r = runner.run(path: f)
            results.append(r)
            var text = CampaignTestReport.text(r)
            if quiet { text = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("  ok ") }.joined(separator: "\n") }
            try sink.write(text)
        }
        try sink.write("\n" + CampaignTestReport.summary(results) + "\n")
        try sink.close()
        if let junit {
            try refuseClash(results.flatMap { r in r.inputs.map { (role: $0 == r.path ? "test file" : "campaign or history file of \(r.path)", path: $0) } })
            try JUnitReport.write(results, to: junit)
        }
        if results.contains(where: \.isBroken) { return .dataError }
        return results.contains { $0.failedCount > 0 } ? .failure : .success
    }

    /// Refuses a `--junit` path that is the same file as one of `inputs` (by device and inode):
    /// writing it would replace a test, campaign or history file.
    private func refuseClash(_ inputs: [(role: String, path: String)]) throws {
        guard let junit, let clash = FileIdentity.firstClash(inputs: inputs, outputs: [(role: "--junit", path: junit)]) else { return }
        throw CLIError.usage("--junit '\(junit)' is the same file as the \(clash.other.role) '\(clash.other.path)': refusing to overwrite it; name another file", Self.usage)
    }
}
