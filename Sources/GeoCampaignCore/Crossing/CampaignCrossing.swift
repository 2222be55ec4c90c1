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
        var shapes: [Region.Shape] = [], h: [Double] = [], confirm: [Int64] = []
        var groupOf: [Int32] = [], campaignOf: [Int32] = [], local: [Int32] = []
        shapes.reserveCapacity(campaigns.reduce(0) { $0 + $1.regions.count })
        HugePages.advise(storageOf: &shapes)
        for key in order {
            guard let list = members[key], let first = list.first?.1 else { continue }
            let g = Int32(groups.count)
            groups.append(Group(maxAccuracyM: first.maxAccuracyM, maxGapMs: first.maxGapMs, campaigns: list.map(\.0)))
            for (c, p) in list {
                for r in campaigns[c].regions.indices {
                    shapes.append(campaigns[c].regions[r].shape)
                    h.append(p.hysteresisM[r]); confirm.append(p.confirmMs[r])
                    groupOf.append(g); campaignOf.append(Int32(c)); local.append(Int32(r))
                }
            }
        }
        self.groups = groups
        // Regions are compiled in the order of a space-filling curve over their centres, so the
        // regions near one another (those one user's fixes meet) lie near one another in memory.
        // Results do not depend on this order: visits carry their campaign's region index and
        // are sorted per campaign.
        let own = CompiledGeometry.bounds(of: shapes)
        let spatial = Self.spatialOrder(own)
        let bounds: [BoundingBox] = HugePages.array(count: spatial.count) { out in
            for k in out.indices { out.initializeElement(at: k, to: own[spatial[k]]) }
        }
        let hysteresis = spatial.map { h[$0] }
        confirm = spatial.map { confirm[$0] }
        groupOf = spatial.map { groupOf[$0] }
        campaignOf = spatial.map { campaignOf[$0] }
        local = spatial.map { local[$0] }
        // The shapes are read through `spatial` (not copied into that order). The index and the
        // inside boxes need only the heads: this thread builds them while the other cores write
        // the vertices and edge chunks (one was done after the other). Not on a worker thread:
        // there its buffers took fresh pages of that thread's malloc arena (11 MB more at the
        // peak with 100k polygons).
        let heads = CompiledGeometry.heads(of: shapes, order: spatial, bounds: bounds)
        var lookup: CrossingCore.Lookup?
        let compiled = CompiledGeometry(shapes: shapes, order: spatial, heads: heads) {
            lookup = CrossingCore.Lookup(heads: heads, hysteresisM: hysteresis)
        }
        core = CrossingCore(compiled: compiled, lookup: lookup ?? CrossingCore.Lookup(heads: heads, hysteresisM: hysteresis),
                            hysteresisM: hysteresis, confirmMs: confirm, group: groupOf,
                            campaign: campaignOf, localRegion: local,
                            groups: groups.map { CrossingCore.Group(maxAccuracyM: $0.maxAccuracyM, maxGapMs: $0.maxGapMs) },
                            campaignCount: campaigns.count)
    }

    /// Indices of `boxes` in Z-order (Morton order) of their centres on a grid of 2^20 x 2^20
    /// cells over the globe (about 40 m), ties in index order. Up to `packedUpTo` boxes (and
    /// never more than 2^24) the keys are sorted as plain integers, each Morton key (40 bits)
    /// above its index (24 bits), which puts ties in index order; beyond that by a comparison
    /// of keys, then indices (the same order).
    /// - Complexity: O(n log n).
    static func spatialOrder(_ boxes: [BoundingBox], packedUpTo: Int = 1 << 24) -> [Int] {
        func spread(_ v: UInt64) -> UInt64 {
            var x = v & 0xF_FFFF
            x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
            x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
            x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
            x = (x | (x << 2)) & 0x3333_3333_3333_3333
            x = (x | (x << 1)) & 0x5555_5555_5555_5555
            return x
        }
        func cell(_ v: Double, _ lo: Double, _ span: Double) -> UInt64 {
            let f = (v - lo) / span * 1_048_576
            return f.isFinite ? UInt64(min(1_048_575, max(0, f))) : 0
        }
        var keys = boxes.map { b -> UInt64 in
            return spread(cell((b.minLon + b.maxLon) / 2, -180, 360)) | (spread(cell((b.minLat + b.maxLat) / 2, -90, 180)) << 1)
        }
        if keys.count <= min(packedUpTo, 1 << 24) {
            var packed = keys.enumerated().map { ($0.element << 24) | UInt64($0.offset) }
            // The keys' storage, no longer needed, is the sort's second buffer.
            sortByKeys(&packed, spare: &keys)
            return packed.map { Int($0 & 0xFF_FFFF) }
        }
        return keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
    }

    /// Sorts packed values (a 40-bit key above a 24-bit index, the values in index order) as
    /// `sort()` does: by a stable least-significant-digit radix sort of the keys, 10 bits a pass,
    /// so equal keys stay in index order; a pass is skipped where every key has the same digit
    /// (the high bits of a city's keys). 100,000 values: four passes at most, where the
    /// comparison sort made about 1.7M comparisons. `spare` (as long as `values`; its contents
    /// are overwritten) is the second buffer, so the sort allocates no more than `sort()` did.
    /// - Complexity: O(n).
    static func sortByKeys(_ values: inout [UInt64], spare: inout [UInt64]) {
        let n = values.count, digits = 1 << 10
        guard n > 1 else { return }
        precondition(spare.count == n, "the spare buffer is as long as the values")
        var counts = [Int](repeating: 0, count: digits)
        for shift in stride(from: UInt64(24), to: 64, by: 10) {
            let moved = values.withUnsafeBufferPointer { src in
                spare.withUnsafeMutableBufferPointer { dst in
                    counts.withUnsafeMutableBufferPointer { counts in
                        counts.initialize(repeating: 0)
                        for v in src { counts[Int((v >> shift) & 0x3FF)] += 1 }
                        if counts[Int((src[0] >> shift) & 0x3FF)] == n { return false }
                        var start = 0
                        for d in 0..<digits {
                            let c = counts[d]
                            counts[d] = start
                            start += c
                        }
                        for v in src {
                            let d = Int((v >> shift) & 0x3FF)
                            dst[counts[d]] = v
                            counts[d] += 1
                        }
                        return true
                    }
                }
            }
            if moved { swap(&values, &spare) }
        }
    }

    /// The visits of one user for every campaign: element `i` holds campaign `i`'s visits, with
    /// region indices of that campaign, sorted as `CrossingEngine.visits` sorts them.
    /// - Parameters: as `CrossingEngine.visits(fixes:tEnd:)`.
    /// - Complexity: O(fixes x (groups + index levels + regions near each fix + regions with state)).
    public func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [[Visit]] {
        core.visits(fixes: fixes, tEnd: tEnd)
    }

    /// Per campaign, per region of the campaign: its index in the compiled order (for resuming).
    /// - Complexity: O(regions).
    public func compiledIndices() -> [[Int32]] {
        withExtendedLifetime(core) {
            let records = core.regions.records.elements
            var counts = [Int](repeating: 0, count: campaignCount)
            for rec in records { counts[Int(rec.campaign)] = max(counts[Int(rec.campaign)], Int(rec.localRegion) + 1) }
            var out = counts.map { [Int32](repeating: -1, count: $0) }
            for r in records.indices { out[Int(records[r].campaign)][Int(records[r].localRegion)] = Int32(r) }
            return out
        }
    }

    /// The visits of one user for every campaign, continuing from `resume` and leaving there
    /// the state after `fixes` (state.md 1): runs resumed batch after batch give the visits of
    /// one run over all the fixes.
    /// - Parameters:
    ///   - fixes: the user's new fixes in time order, none earlier than the last one resumed.
    ///   - tEnd: the user's last accepted fix so far.
    ///   - compiled: `compiledIndices()`.
    /// - Complexity: as `visits(fixes:tEnd:)`, plus the resumed tracks.
    public func visits(fixes: [Fix], tEnd: Int64, resume: inout CrossingResume, compiled: [[Int32]]) -> [[Visit]] {
        fixes.withUnsafeBufferPointer { visits(fixes: $0, tEnd: tEnd, resume: &resume, compiled: compiled) }
    }

    /// As `visits(fixes:tEnd:resume:compiled:)`, from fixes in a buffer (valid during the call).
    func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64, resume: inout CrossingResume, compiled: [[Int32]]) -> [[Visit]] {
        core.visits(fixes: fixes, tEnd: tEnd, resume: &resume, compiled: compiled)
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
