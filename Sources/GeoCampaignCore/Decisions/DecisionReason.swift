/// Why a decision got its status, as data: the cap or limit and the earlier decisions that used
/// it up, the holdout bucket, or the delivery at the same instant (semantics 4.1). `explain`
/// words it for a person; `evaluate --include-suppressed` writes it as the `reason` object.
///
///     .capped(cap: 1 per 7d, by: [lunch-coupon delivered 2026-11-17T20:12:38Z])
///     .limited(limit: 3 per 24h, by: [three deliveries in the window])
public enum DecisionReason: Sendable, Equatable {
    /// Nothing stood in the way.
    case delivered
    /// The offer's cap was used up by `by` (delivered or held-out decisions of that offer, oldest first).
    case capped(cap: Cap, by: [PriorDecision])
    /// The user is in the campaign's holdout: `percent` held out, the user's bucket of 10000.
    case heldOut(percent: Double, bucket: Int)
    /// `by` was delivered to the user at the same instant.
    case lowerPriority(by: PriorDecision)
    /// `limits.per_user` was used up by `by` (deliveries, oldest first).
    case limited(limit: Cap, by: [PriorDecision])
}
