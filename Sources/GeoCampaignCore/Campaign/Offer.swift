/// An offer: what a rule delivers (formats.md 1.4).
public struct Offer: Sendable {
    /// Offer id, unique within the campaign.
    public var id: String
    /// Higher wins; default 0.
    public var priority: Int
    /// Optional frequency cap.
    public var cap: Cap?
    /// Optional message copied into every decision.
    public var message: String?

    /// Creates an offer.
    public init(id: String, priority: Int = 0, cap: Cap? = nil, message: String? = nil) {
        self.id = id
        self.priority = priority
        self.cap = cap
        self.message = message
    }
}
