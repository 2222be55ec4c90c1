/// The running counts of one campaign (measurement.md 4), and its exposures for the lift.
public struct CampaignTally: Sendable {
    /// The length of a bucket of `decisionsByQuarterHour`: every time zone's offset is a whole
    /// number of them, so the buckets can be grouped into the days of any zone.
    public static let bucketMs: Int64 = 15 * 60 * 1000

    /// Users with a visit to any region of the campaign.
    public var users = 0
    /// Visits per region (index = region index of the campaign).
    public var regionVisits: [Int]
    /// Per rule, in file order.
    public var rules: [RuleCounts]
    /// Per offer, in file order.
    public var offers: [OfferCounts]
    /// Decisions by quarter hour (`time / bucketMs`, floored), by status in `DecisionStatus.allCases` order.
    public var decisionsByQuarterHour: [Int64: [Int]] = [:]
    /// One per user with a decision of the campaign, when it has a goal; in no particular order.
    public var exposures: [Exposure] = []

    /// Zero counts for `campaign`.
    public init(_ campaign: Campaign) {
        regionVisits = [Int](repeating: 0, count: campaign.regions.count)
        rules = [RuleCounts](repeating: RuleCounts(), count: campaign.rules.count)
        offers = [OfferCounts](repeating: OfferCounts(), count: campaign.offers.count)
    }

    /// Counts one decision in its quarter hour.
    mutating func count(decisionAt time: Int64, status: DecisionStatus) {
        var q = time / Self.bucketMs
        if time % Self.bucketMs < 0 { q -= 1 }
        decisionsByQuarterHour[q, default: [Int](repeating: 0, count: DecisionStatus.allCases.count)][status.index] += 1
    }

    /// Adds another tally of the same campaign.
    mutating func merge(_ o: CampaignTally) {
        users += o.users
        for i in regionVisits.indices { regionVisits[i] += o.regionVisits[i] }
        for i in rules.indices {
            rules[i].triggered += o.rules[i].triggered
            rules[i].triggers += o.rules[i].triggers
        }
        for i in offers.indices {
            offers[i].reached += o.offers[i].reached
            for s in offers[i].decisions.indices { offers[i].decisions[s] += o.offers[i].decisions[s] }
        }
        for (q, counts) in o.decisionsByQuarterHour {
            if var mine = decisionsByQuarterHour[q] {
                for s in mine.indices { mine[s] += counts[s] }
                decisionsByQuarterHour[q] = mine
            } else {
                decisionsByQuarterHour[q] = counts
            }
        }
        exposures += o.exposures
    }
}
