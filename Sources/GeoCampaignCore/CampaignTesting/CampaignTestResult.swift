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

    /// Whether the file or its campaigns have errors: its cases were not run.
    public var isBroken: Bool { diagnostics.contains { $0.severity == .error } }
    /// Cases that failed.
    public var failedCount: Int { cases.filter { !$0.passed }.count }
}

/// One case's result.
public struct CampaignTestCaseResult: Sendable {
    /// The case's name.
    public var name: String
    /// The line where the case starts.
    public var line: Int
    /// Every expectation not met, in file order.
    public var failures: [CampaignTestFailure]
    /// Wall time of the case in seconds.
    public var seconds: Double

    /// Whether every expectation was met.
    public var passed: Bool { failures.isEmpty }
}

/// One expectation not met: what was expected and what happened, side by side, and the
/// explanation of the rules involved (`explain`'s lines).
public struct CampaignTestFailure: Sendable {
    /// The expectation's line and column in the test file.
    public var line: Int
    public var column: Int
    /// The expectation in words (left column).
    public var expected: [String]
    /// What happened (right column).
    public var actual: [String]
    /// The explain lines of the rules (or visits) involved.
    public var explain: [String]
}
