extension CampaignMeasurement {
    /// Reach of one offer.
    public struct OfferReach: Sendable, Equatable {
        /// The offer id.
        public var offer: String
        /// Distinct users with a delivered decision of the offer.
        public var reached: Int
        /// Decisions of the offer by status (every status present, 0 when none).
        public var decisions: [DecisionStatus: Int]
    }
}
