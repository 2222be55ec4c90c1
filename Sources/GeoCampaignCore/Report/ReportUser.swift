/// One user drawn on the report's map (`report --user ID`): the track, the visits and the decisions.
public struct ReportUser: Sendable {
    /// The replay's outcome of the user.
    public var outcome: UserOutcome
    /// The user's fixes considered, in time order.
    public var fixes: [Fix]

    /// Creates the user's part of a report.
    public init(outcome: UserOutcome, fixes: [Fix]) {
        self.outcome = outcome
        self.fixes = fixes
    }
}
