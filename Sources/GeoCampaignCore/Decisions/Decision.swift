/// What happened to a trigger (semantics 4.1).
public struct Decision: Sendable, Equatable {
    /// The trigger decided on.
    public var trigger: Trigger
    /// Its status.
    public var status: DecisionStatus
    /// Creates a decision.
    public init(trigger: Trigger, status: DecisionStatus) {
        self.trigger = trigger
        self.status = status
    }
}

/// The status of a decision, in the order they are checked (semantics 4.1).
public enum DecisionStatus: String, Sendable, CaseIterable {
    case capped
    case heldOut = "held_out"
    case lowerPriority = "lower_priority"
    case limited
    case delivered

    /// The status's position in `allCases`.
    var index: Int {
        switch self {
        case .capped: return 0
        case .heldOut: return 1
        case .lowerPriority: return 2
        case .limited: return 3
        case .delivered: return 4
        }
    }
}
