/// A rule: when its condition becomes true for a user, its offer is considered (formats.md 1.3).
public struct Rule: Sendable {
    /// Rule id, unique within the campaign.
    public var id: String
    /// Optional description for people.
    public var description: String?
    /// The condition.
    public var condition: Condition
    /// Id of an offer of the same campaign.
    public var offer: String

    /// Creates a rule.
    public init(id: String, description: String? = nil, condition: Condition, offer: String) {
        self.id = id
        self.description = description
        self.condition = condition
        self.offer = offer
    }
}
