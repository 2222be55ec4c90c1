/// One case of a test file: a history and what must (not) happen.
public struct CampaignTestCase: Sendable {
    /// The case's name, as printed.
    public var name: String
    /// Where the case starts in its file.
    var mark: SourceMark
    /// The pieces of the history, in file order.
    var history: [TestHistoryItem]
    /// `until:` (or `now:`): replay the history as it stood at that instant.
    var until: TestTime?
    /// The expectations, in file order.
    var expectations: [TestExpectation]
}
