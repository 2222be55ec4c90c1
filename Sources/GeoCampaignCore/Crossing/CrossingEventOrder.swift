/// The order of formats.md 3.2 within one user: time, then exits before enters, then campaign id,
/// then region id (ids in UTF-8 byte order). Ranks are computed once for a campaign list, so
/// ordering a user's events compares integers only.
public struct CrossingEventOrder: Sendable {
    /// Rank of each campaign's id among all campaign ids.
    let campaignRank: [Int32]
    /// Per campaign, rank of each region's id among that campaign's region ids.
    let regionRank: [[Int32]]

    /// Precomputes id ranks for `campaigns` (the list whose indices events carry).
    /// - Complexity: O(n log n) over campaigns and their regions.
    public init(campaigns: [Campaign]) {
        func ranks(_ ids: [String]) -> [Int32] {
            let bytes = ids.map { Array($0.utf8) }
            let sorted = bytes.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
            var rank = [Int32](repeating: 0, count: ids.count)
            for (r, i) in sorted.enumerated() { rank[i] = Int32(r) }
            return rank
        }
        campaignRank = ranks(campaigns.map(\.id))
        regionRank = campaigns.map { ranks($0.regions.map(\.id)) }
    }

    /// One user's events from the visits of each campaign (`visitsByCampaign[i]` are the visits of
    /// campaign `i`, as `CrossingEngine.visits` returns them), in formats.md 3.2 order. An open
    /// visit gives an enter only.
    /// - Complexity: O(e log e) for e events.
    public func events(visitsByCampaign: [[Visit]]) -> [CrossingEvent] {
        var out: [CrossingEvent] = []
        for (c, visits) in visitsByCampaign.enumerated() {
            for v in visits {
                out.append(CrossingEvent(kind: .enter, time: v.enter, campaign: Int32(c), visit: v))
                if let exit = v.exit { out.append(CrossingEvent(kind: .exit, time: exit, campaign: Int32(c), visit: v)) }
            }
        }
        out.sort(by: precedes)
        return out
    }

    /// Whether `a` comes before `b` in formats.md 3.2 order (same user).
    public func precedes(_ a: CrossingEvent, _ b: CrossingEvent) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.kind != b.kind { return a.kind < b.kind }
        let ca = Int(a.campaign), cb = Int(b.campaign)
        if ca != cb { return campaignRank[ca] < campaignRank[cb] }
        let ra = regionRank[ca][Int(a.visit.region)], rb = regionRank[cb][Int(b.visit.region)]
        if ra != rb { return ra < rb }
        return a.visit.enter < b.visit.enter
    }
}
