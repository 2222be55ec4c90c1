/// What running one test file found: its problems (a broken file or campaign), or each case's
/// result (`geocampaign test`).
public struct CampaignTestFileResult: Sendable {
    /// The test file.
    public var path: String
    /// Problems of the test file and of the campaigns it names, with file:line:column; errors
    /// make the file broken (exit 65), warnings are only shown.
    public var diagnostics: [Diagnostic]
    /// The cases run, in file order (none when the file is broken).
    public var cases: [CampaignTestCaseResult]
    /// The zone times are written in.
    public var zone: LocalTimeFormat
    /// The files the run read: the test file, the campaign files it names (a folder's files)
    /// and its history files; an output such as `--junit` must be none of them.
    public var inputs: [String] = []

    /// Whether the file or its campaigns have errors: its cases were not run.
    public var isBroken: Bool { diagnostics.contains { $0.severity == .error } }
    /// Cases that failed.
    public var failedCount: Int { cases.filter { !$0.passed }.count }
}
