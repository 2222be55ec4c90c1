/// A decision with the reason for its status in words (`geocampaign explain`).
///
///     status .limited, why: "per-user limit reached: 3 deliveries in the last 24h (limit 3 per 24h)"
public struct ExplainedDecision: Sendable, Equatable {
    /// The decision.
    public var decision: Decision
    /// Why it got its status; empty from `Arbiter.decide`, which does not build the text.
    public var why: String
    /// Why it got its status, as data (the deliveries that used up a cap or limit, the bucket, ...).
    public var reason: DecisionReason

    /// Creates an explained decision.
    public init(decision: Decision, why: String, reason: DecisionReason = .delivered) {
        self.decision = decision
        self.why = why
        self.reason = reason
    }
}
