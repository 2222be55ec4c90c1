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
