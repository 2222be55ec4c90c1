extension CampaignTally {
    /// Counts of one offer.
    public struct OfferCounts: Sendable, Equatable {
        /// Distinct users with a delivered decision.
        public var reached = 0
        /// Decisions by status, in `DecisionStatus.allCases` order.
        public var decisions = [Int](repeating: 0, count: DecisionStatus.allCases.count)
    }
}
