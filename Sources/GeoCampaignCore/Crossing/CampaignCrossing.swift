/// The crossing engine for a whole campaign set: campaigns that share `max_accuracy` and
/// `max_gap` (and so cut a user's track into the same segments) share one engine and one index,
/// so a fix costs one index query per group instead of one per campaign. Results are exactly
/// those of one `CrossingEngine` per campaign.
///
/// Immutable after `init`; safe to share across threads.
public struct CampaignCrossing: Sendable {
    struct Group: Sendable {
        var engine: CrossingEngine
        /// Per region of the group's engine: its campaign and its index within that campaign.
        var campaignOf: [Int32]
        var localRegion: [Int32]
    }

    let groups: [Group]
    /// Number of campaigns (the length of every result).
    public let campaignCount: Int

    /// Compiles every campaign's regions, grouped by (max_accuracy, max_gap).
    /// - Complexity: O(total vertices + n log n) for n regions.
    public init(campaigns: [Campaign], settings: Settings) {
        campaignCount = campaigns.count
        var order: [String] = []
        var members: [String: [(Int, CrossingParameters)]] = [:]
        for (c, campaign) in campaigns.enumerated() {
            let p = CrossingParameters(campaign: campaign, settings: settings)
            let key = "\(p.maxAccuracyM.bitPattern):\(p.maxGapMs)"
            if members[key] == nil { order.append(key) }
            members[key, default: []].append((c, p))
        }
        groups = order.compactMap { key in
            guard let list = members[key], let first = list.first?.1 else { return nil }
            var shapes: [Region.Shape] = [], h: [Double] = [], confirm: [Int64] = []
            var campaignOf: [Int32] = [], local: [Int32] = []
            for (c, p) in list {
                for (r, region) in campaigns[c].regions.enumerated() {
                    shapes.append(region.shape)
                    h.append(p.hysteresisM[r]); confirm.append(p.confirmMs[r])
                    campaignOf.append(Int32(c)); local.append(Int32(r))
                }
            }
            let params = CrossingParameters(maxAccuracyM: first.maxAccuracyM, maxGapMs: first.maxGapMs, hysteresisM: h, confirmMs: confirm)
            return Group(engine: CrossingEngine(shapes: shapes, parameters: params), campaignOf: campaignOf, localRegion: local)
        }
    }

    /// The visits of one user for every campaign: element `i` holds campaign `i`'s visits, with
    /// region indices of that campaign, sorted as `CrossingEngine.visits` sorts them.
    /// - Parameters: as `CrossingEngine.visits(fixes:tEnd:)`.
    /// - Complexity: O(fixes x (groups + regions near each fix + regions with state)).
    public func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [[Visit]] {
        var out = [[Visit]](repeating: [], count: campaignCount)
        for group in groups {
            for var v in group.engine.visits(fixes: fixes, tEnd: tEnd) {
                let g = Int(v.region)
                v.region = group.localRegion[g]
                out[Int(group.campaignOf[g])].append(v)
            }
        }
        return out
    }

    /// The visits of one user for every campaign (see the buffer variant).
    public func visits(fixes: [Fix], tEnd: Int64) -> [[Visit]] {
        fixes.withUnsafeBufferPointer { visits(fixes: $0, tEnd: tEnd) }
    }

    /// The visits of one user for every campaign, from a slice of a larger array.
    public func visits(fixes: ArraySlice<Fix>, tEnd: Int64) -> [[Visit]] {
        fixes.withUnsafeBufferPointer { visits(fixes: $0, tEnd: tEnd) }
    }
}
