extension CampaignMeasurement {
    /// Reach of one rule.
    public struct RuleReach: Sendable, Equatable {
        /// The rule id.
        public var rule: String
        /// Distinct users with at least one trigger of the rule.
        public var triggered: Int
        /// The rule's triggers.
        public var triggers: Int
    }
}
