/// Why a rule did or did not trigger for one user (`geocampaign explain`).
///
///     rule: three-dealers, held: [], triggers: []
///     description: "never held: 2 of 3 distinct car-dealer regions within 72h: dealer-1, dealer-7"
public struct RuleExplanation: Sendable, Equatable {
    /// Index of the rule in its campaign.
    public var rule: Int
    /// The rule id.
    public var ruleId: String
    /// The offer id the rule names.
    public var offer: String
    /// Where the rule held: its condition AND the campaign's `active` window, on `[T0, Tend]`.
    public var held: [Interval]
    /// The trigger instants (the starts of `held`).
    public var triggers: [Int64]
    /// The condition's own report (where it held ignoring `active`, or where it came closest).
    public var condition: ConditionReport
    /// True when the condition held on the timeline but never inside the `active` window.
    public var onlyOutsideActiveWindow: Bool
    /// One paragraph: the intervals where it held, or the nearest miss.
    public var description: String
    /// For a rule that never held: where it would first have held had the history gone on
    /// (visits as they stood at its end); nil otherwise.
    public var heldAfterEnd: Int64?

    /// Creates an explanation.
    public init(rule: Int, ruleId: String, offer: String, held: [Interval], triggers: [Int64], condition: ConditionReport,
                onlyOutsideActiveWindow: Bool, description: String, heldAfterEnd: Int64? = nil) {
        self.rule = rule
        self.ruleId = ruleId
        self.offer = offer
        self.held = held
        self.triggers = triggers
        self.condition = condition
        self.onlyOutsideActiveWindow = onlyOutsideActiveWindow
        self.description = description
        self.heldAfterEnd = heldAfterEnd
    }
}
