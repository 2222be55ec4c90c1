/// One expectation of a test case (docs/testing-campaigns.md, "expect").
struct TestExpectation: Sendable {
    /// What is expected.
    enum Kind: Sendable, Equatable {
        /// `decision:` a decision that must happen.
        case decision
        /// `absent:` with `offer`: a decision that must not happen; with `region`: a visit that must not.
        case absent
        /// `visit:` a visit that must happen.
        case visit
    }

    var kind: Kind
    var mark: SourceMark
    var user: String
    var campaign: String?
    var rule: String?
    var offer: String?
    var region: String?
    /// The status asked for; nil with `status: any` (absent only); default `delivered`.
    var status: DecisionStatus?
    var anyStatus: Bool = false
    /// `time:` the decision's time (or the visit's enter) lies in the span the text denotes.
    var time: TestTime?
    /// `between: [A, B]`: in `[A, B)`.
    var between: (TestTime, TestTime)?
    /// `count: N`: exactly N matching decisions or visits (default: at least one).
    var count: Int?
    /// `at_least: DURATION` (visit): the visit lasted at least this long.
    var atLeastMs: Int64?
}
