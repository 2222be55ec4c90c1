/// An earlier decision named by a reason: its trigger and status.
public struct PriorDecision: Sendable, Equatable {
    /// The trigger decided on (campaign, rule, time).
    public var trigger: Trigger
    /// Its status (`delivered`, or `held_out` for a cap).
    public var status: DecisionStatus

    /// Creates a prior decision.
    public init(trigger: Trigger, status: DecisionStatus) {
        self.trigger = trigger
        self.status = status
    }
}
