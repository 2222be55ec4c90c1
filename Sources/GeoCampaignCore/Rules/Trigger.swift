/// The instant a rule's condition becomes true for a user (start of a maximal interval).
public struct Trigger: Sendable, Equatable {
    /// Unix milliseconds.
    public var time: Int64
    /// Index into `CampaignSet.campaigns`.
    public var campaign: Int
    /// Index into that campaign's `rules`.
    public var rule: Int
    /// Indices into the visit list of that campaign for this user that made the condition true (semantics 4.4).
    public var evidence: [Int]

    /// Creates a trigger.
    public init(time: Int64, campaign: Int, rule: Int, evidence: [Int]) {
        self.time = time
        self.campaign = campaign
        self.rule = rule
        self.evidence = evidence
    }
}
