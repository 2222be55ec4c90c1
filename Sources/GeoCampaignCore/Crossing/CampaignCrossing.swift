import Foundation

/// The crossing engine for a whole campaign set: campaigns that share `max_accuracy` and
/// `max_gap` (and so cut a user's track into the same segments) form one tracking group, and all
/// groups share one region index, so a fix costs one index query whatever the number of
/// campaigns. Results are exactly those of one `CrossingEngine` per campaign.
///
/// Immutable after `init`; safe to share across threads.
public struct CampaignCrossing: Sendable {
    struct Group: Sendable {
        /// The group's segmenting parameters.
        var maxAccuracyM: Double
        var maxGapMs: Int64
        /// The campaigns in the group.
        var campaigns: [Int]
    }

    let groups: [Group]
    let core: CrossingCore
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
        var groups: [Group] = []
        var geometries: [RegionGeometry] = [], h: [Double] = [], confirm: [Int64] = []
        var groupOf: [Int32] = [], campaignOf: [Int32] = [], local: [Int32] = []
        for key in order {
            guard let list = members[key], let first = list.first?.1 else { continue }
            let g = Int32(groups.count)
            groups.append(Group(maxAccuracyM: first.maxAccuracyM, maxGapMs: first.maxGapMs, campaigns: list.map(\.0)))
            for (c, p) in list {
                geometries += Self.geometries(of: campaigns[c].regions)
                for r in campaigns[c].regions.indices {
                    h.append(p.hysteresisM[r]); confirm.append(p.confirmMs[r])
                    groupOf.append(g); campaignOf.append(Int32(c)); local.append(Int32(r))
                }
            }
        }
        self.groups = groups
        core = CrossingCore(geometries: geometries, hysteresisM: h, confirmMs: confirm, group: groupOf,
                            campaign: campaignOf, localRegion: local,
                            groups: groups.map { CrossingCore.Group(maxAccuracyM: $0.maxAccuracyM, maxGapMs: $0.maxGapMs) },
                            campaignCount: campaigns.count)
    }

    /// The compiled geometry of every region, in order; large campaigns are compiled in chunks
    /// on all cores.
    /// - Complexity: O(total vertices), spread over the cores.
    static func geometries(of regions: [Region]) -> [RegionGeometry] {
        let n = regions.count
        let chunks = n < 8_192 ? 1 : min(64, ProcessInfo.processInfo.activeProcessorCount * 8)
        if chunks == 1 { return regions.map { RegionGeometry($0.shape) } }
        let out = UnsafeMutableBufferPointer<RegionGeometry>.allocate(capacity: n)
        defer { out.deallocate() }
        regions.withUnsafeBufferPointer { src in
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                for i in (n * k / chunks)..<(n * (k + 1) / chunks) {
                    (out.baseAddress.unsafelyUnwrapped + i).initialize(to: RegionGeometry(src[i].shape))
                }
            }
        }
        let result = Array(out)
        out.baseAddress.map { _ = $0.deinitialize(count: n) }
        return result
    }

    /// The visits of one user for every campaign: element `i` holds campaign `i`'s visits, with
    /// region indices of that campaign, sorted as `CrossingEngine.visits` sorts them.
    /// - Parameters: as `CrossingEngine.visits(fixes:tEnd:)`.
    /// - Complexity: O(fixes x (groups + index levels + regions near each fix + regions with state)).
    public func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [[Visit]] {
        core.visits(fixes: fixes, tEnd: tEnd)
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
