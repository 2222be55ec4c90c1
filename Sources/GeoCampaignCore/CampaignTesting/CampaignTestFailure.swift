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
