extension CampaignTally {
    /// Counts of one rule.
    public struct RuleCounts: Sendable, Equatable {
        /// Distinct users with at least one trigger.
        public var triggered = 0
        /// Triggers.
        public var triggers = 0
    }
}
