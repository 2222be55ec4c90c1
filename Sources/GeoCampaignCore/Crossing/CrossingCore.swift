import Foundation

/// The per-fix crossing loop (semantics.md 2) over the regions of one or more campaigns at once.
///
/// Regions are split into tracking groups (campaigns sharing `max_accuracy` and `max_gap`, which
/// cut a track into the same segments); every group keeps its own segments and gaps, but all
/// regions share one index, so a fix costs one query whatever the number of groups. The loop
/// reads regions and the index through plain pointers and allocates nothing per fix. Results
/// are those of one engine per campaign.
///
/// Immutable after `init`; safe to share across threads.
struct CrossingCore: Sendable {
    /// A tracking group's segmenting parameters.
    struct Group: Sendable {
        var maxAccuracyM: Double
        var maxGapMs: Int64
    }

    /// Per group, what the loop knows of the current user.
    struct GroupState {
        var last: Int64 = 0
        var hasLast = false
        var usedNow = false
    }

    let groups: FixedBuffer<Group>
    let regions: CompiledRegions
    /// Per polygon, the grid that decides most fixes without looking at an edge (built when a
    /// fix first needs it).
    let cells: PolygonCellGrids
    /// Index over each region's box grown by its hysteresis plus `CrossingEngine.indexMarginM`.
    let index: RegionIndex
    /// Number of campaigns (the length of every result).
    let campaignCount: Int
    /// Per region: a box outside which no fix is IN (see `init`), as floats rounded outward.
    let insideBoxes: FixedBuffer<RegionIndex.FloatBox>
    /// How far beyond a region's own box `insideBoxes` reach (far above the 1 mm tolerance).
    static let insideMarginM = 0.5

    /// Compiles regions given by geometry with resolved parameters (per-region arrays of equal length).
    /// - Complexity: O(total vertices + n log n) for n regions.
    init(geometries: [RegionGeometry], hysteresisM: [Double], confirmMs: [Int64], group: [Int32],
         campaign: [Int32], localRegion: [Int32], groups: [Group], campaignCount: Int) {
        self.init(compiled: CompiledGeometry(geometries: geometries), hysteresisM: hysteresisM, confirmMs: confirmMs, group: group,
                  campaign: campaign, localRegion: localRegion, groups: groups, campaignCount: campaignCount)
    }

    /// Compiles regions given by flat compiled geometry (whose buffers the regions adopt) with
    /// resolved parameters (per-region arrays of equal length).
    /// - Complexity: O(n log n) for n regions.
    init(compiled: CompiledGeometry, hysteresisM: [Double], confirmMs: [Int64], group: [Int32],
         campaign: [Int32], localRegion: [Int32], groups: [Group], campaignCount: Int) {
        self.init(compiled: compiled, lookup: Lookup(heads: compiled.heads, hysteresisM: hysteresisM), hysteresisM: hysteresisM,
                  confirmMs: confirmMs, group: group, campaign: campaign, localRegion: localRegion, groups: groups, campaignCount: campaignCount)
    }

    /// As `init(compiled:hysteresisM:...)`, with the lookup already built
    /// (`Lookup(heads: compiled.heads, hysteresisM: hysteresisM)`).
    /// - Complexity: O(n) for n regions.
    init(compiled: CompiledGeometry, lookup: Lookup, hysteresisM: [Double], confirmMs: [Int64], group: [Int32],
         campaign: [Int32], localRegion: [Int32], groups: [Group], campaignCount: Int) {
        let geometries = compiled.heads
        let classifiers: [CircleClassifier] = HugePages.array(count: geometries.count) { out in
            for r in out.indices { out.initializeElement(at: r, to: geometries[r].circleClassifier(hysteresisM: hysteresisM[r])) }
        }
        let compiledRegions = CompiledRegions(compiled: compiled, classifiers: classifiers, hysteresisM: hysteresisM, confirmMs: confirmMs,
                                              group: group, campaign: campaign, localRegion: localRegion)
        regions = compiledRegions
        cells = PolygonCellGrids(regions: compiledRegions)
        index = lookup.index
        insideBoxes = lookup.insideBoxes
        self.groups = FixedBuffer(groups)
        self.campaignCount = campaignCount
    }

    /// The visits of one user per campaign, with region indices of that campaign, each sorted by
    /// (enter, region index, exit).
    /// - Parameters: as `CrossingEngine.visits(fixes:tEnd:)`.
    /// - Complexity: O(fixes x (groups + index levels + regions near each fix + regions with state)):
    ///   a region near a fix finds its track, if any, in O(1) (`TrackSlots`), so a fix inside k
    ///   overlapping regions costs O(k), not O(k^2).
    func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [[Visit]] {
        withExtendedLifetime(self) { collect(fixes: fixes, tEnd: tEnd, resume: nil) }
    }

    /// As `visits(fixes:tEnd:)`, continuing from the state `resume` holds and leaving there the
    /// state after `fixes` (once the end of the history has closed what the silence rule ends).
    /// - Parameter compiled: per campaign, per region of the campaign, the compiled region index.
    func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64, resume: inout CrossingResume, compiled: [[Int32]]) -> [[Visit]] {
        withUnsafeMutablePointer(to: &resume) { p in
            withExtendedLifetime(self) { collect(fixes: fixes, tEnd: tEnd, resume: (p, compiled)) }
        }
    }

    /// The RegionTrack of a resumed track, or nil when its region is not in `compiled`.
    private static func track(_ t: CrossingResume.Track, compiled: [[Int32]]) -> RegionTrack? {
        guard compiled.indices.contains(Int(t.campaign)), compiled[Int(t.campaign)].indices.contains(Int(t.region)) else { return nil }
        let r = compiled[Int(t.campaign)][Int(t.region)]
        switch t.kind {
        case .entering: return RegionTrack(region: r, state: .entering(t0: t.a), stamp: 0)
        case .inside: return RegionTrack(region: r, state: .inside(enter: t.a, last: t.b), stamp: 0)
        case .exiting: return RegionTrack(region: r, state: .exiting(enter: t.a, t0: t.b), stamp: 0)
        }
    }

    /// A track as a resumable value.
    private static func resumed(_ track: RegionTrack, _ records: UnsafeBufferPointer<CompiledRegions.Record>) -> CrossingResume.Track {
        let rec = records[Int(track.region)]
        switch track.state {
        case let .entering(t0): return .init(campaign: rec.campaign, region: rec.localRegion, kind: .entering, a: t0, b: 0)
        case let .inside(enter, last): return .init(campaign: rec.campaign, region: rec.localRegion, kind: .inside, a: enter, b: last)
        case let .exiting(enter, t0): return .init(campaign: rec.campaign, region: rec.localRegion, kind: .exiting, a: enter, b: t0)
        }
    }

    /// Appends `visit`, if any, to its campaign's visits, with the campaign's region index.
    @inline(__always)
    private static func emit(_ visit: Visit?, _ records: UnsafeBufferPointer<CompiledRegions.Record>, _ out: inout [[Visit]]) {
        guard var v = visit else { return }
        let rec = records[Int(v.region)]
        v.region = rec.localRegion
        out[Int(rec.campaign)].append(v)
    }

    /// Ends a segment of group `g`: its visits inside close with reason `gap`; its tracks go.
    private static func closeByGap(group g: Int, groupCount: Int, _ records: UnsafeBufferPointer<CompiledRegions.Record>,
                                   _ tracks: inout [RegionTrack], _ slots: inout TrackSlots, _ out: inout [[Visit]]) {
        slots.invalidate()
        if groupCount == 1 {
            for track in tracks { emit(track.closedByGap(), records, &out) }
            tracks.removeAll(keepingCapacity: true)
            return
        }
        var kept = 0
        for k in tracks.indices {
            let track = tracks[k]
            if Int(records[Int(track.region)].group) == g {
                emit(track.closedByGap(), records, &out)
            } else {
                tracks[kept] = track
                kept += 1
            }
        }
        tracks.removeSubrange(kept...)
    }

    /// How many fixes ahead pass 2 asks for the cache lines of the regions it will classify.
    static let recordsAhead = 2

    /// Asks for the lines pass 2 reads first for candidates `near[from ..< to]` of a later fix:
    /// the region's inside box, its record (112 bytes, two or three lines) and its grid header.
    @inline(__always)
    private func prefetchRecords(_ near: ScratchBuffer<Int32>, from: Int, to: Int, _ records: UnsafeBufferPointer<CompiledRegions.Record>,
                                 _ insideBoxes: UnsafeBufferPointer<RegionIndex.FloatBox>, _ headers: UnsafeBufferPointer<PolygonCellGrids.Header>) {
        guard let record = records.baseAddress, let box = insideBoxes.baseAddress, let header = headers.baseAddress else { return }
        for n in from..<to {
            let r = Int(near[n])
            prefetch(box + r)
            let at = UnsafeRawPointer(record + r)
            prefetch(at)
            prefetch(at + 64)
            prefetch(at + (MemoryLayout<CompiledRegions.Record>.size - 1))
            prefetch(header + r)
            prefetch(UnsafeRawPointer(header + r) + (MemoryLayout<PolygonCellGrids.Header>.size - 1))
        }
    }

    private func collect(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64,
                         resume: (state: UnsafeMutablePointer<CrossingResume>, compiled: [[Int32]])?) -> [[Visit]] {
        let regions = self.regions.view
        let cells = self.cells.view
        let records = regions.records
        let probe = index.probe
        let groups = self.groups.elements
        let groupCount = groups.count
        let state = UnsafeMutableBufferPointer<GroupState>.allocate(capacity: max(1, groupCount))
        state.initialize(repeating: GroupState())
        let cache = UnsafeMutableBufferPointer<RegionIndex.CellCache>.allocate(capacity: max(1, probe.levels.count))
        cache.initialize(repeating: RegionIndex.CellCache())
        let ends = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, fixes.count))
        var near = ScratchBuffer<Int32>(capacity: fixes.count * 2)
        let insideBoxes = self.insideBoxes.elements
        defer {
            state.deallocate()
            cache.deallocate()
            ends.deallocate()
            near.free()
        }

        // Pass 1: the regions near each fix. The index queries have no dependency from one fix
        // to the next, so the probe runs them as a pipeline, a few fixes ahead.
        probe.candidates(count: fixes.count, point: { i in
            let fix = fixes[i]
            for g in 0..<groupCount where fix.isUsed(maxAccuracy: groups[g].maxAccuracyM) { return (fix.lat, fix.lon) }
            return nil
        }, cache: cache, into: &near, ends: ends)

        // Pass 2: the state machines, fix by fix.
        var out = [[Visit]](repeating: [], count: campaignCount)
        var tracks: [RegionTrack] = []
        // Where each region's track lies, once there are too many tracks to scan per candidate.
        var slots = TrackSlots()
        defer { slots.free() }
        if let resume {
            let start = resume.state.pointee
            for g in 0..<groupCount {
                let key = (groups[g].maxAccuracyM.bitPattern, groups[g].maxGapMs)
                if let e = start.groups.first(where: { ($0.maxAccuracyBits, $0.maxGapMs) == key }) {
                    state[g].last = e.last
                    state[g].hasLast = true
                }
            }
            tracks = start.tracks.compactMap { Self.track($0, compiled: resume.compiled) }
        }
        var stamp = 0
        var nearStart = 0
        // Bounds of each fix's latitude cosine, so that most fixes never compute it.
        var latitudeCosine = LatitudeCosine()
        for i in 0..<fixes.count {
            let fix = fixes[i]
            let nearEnd = Int(ends[i])
            defer { nearStart = nearEnd }
            if i + Self.recordsAhead < fixes.count { prefetchRecords(near, from: Int(ends[i + Self.recordsAhead - 1]), to: Int(ends[i + Self.recordsAhead]), records, insideBoxes, cells.headers) }
            let t = fix.time
            var anyUsed = false
            for g in 0..<groupCount {
                if fix.isUsed(maxAccuracy: groups[g].maxAccuracyM) {
                    if state[g].hasLast && t - state[g].last > groups[g].maxGapMs {
                        Self.closeByGap(group: g, groupCount: groupCount, records, &tracks, &slots, &out)
                    }
                    state[g].last = t
                    state[g].hasLast = true
                    state[g].usedNow = true
                    anyUsed = true
                } else {
                    state[g].usedNow = false
                }
            }
            if !anyUsed { continue }
            stamp += 1
            if nearStart == nearEnd && tracks.isEmpty { continue }
            let existing = tracks.count
            let useSlots = existing > TrackSlots.linearLimit
            if useSlots { slots.sync(tracks, existing) }
            var finished = false
            var angles = FixAngles()
            for n in nearStart..<nearEnd {
                let r32 = near[n]
                let r = Int(r32)
                var k = 0
                if useSlots {
                    k = slots.find(r32) ?? existing
                } else {
                    while k < existing && tracks[k].region != r32 { k += 1 }
                }
                // Without a track only IN matters, and it cannot be outside the region's box.
                // (Tested before the record is read: a candidate that ends here costs no read of it.)
                if k == existing && !insideBoxes[r].mayContain(lat: fix.lat, lon: fix.lon) { continue }
                if groupCount > 1 && !state[Int(records[r].group)].usedNow { continue }
                let confirm = records[r].confirmMs
                let c: FixClass
                if let decided = cells.classify(r, latDeg: fix.lat, lonDeg: fix.lon) {
                    c = decided
                } else {
                    angles.radians(fix, &latitudeCosine)
                    if let bounded = regions.classify(r, latRad: angles.latRad, lonRad: angles.lonRad, cosLow: angles.cosLow, cosHigh: angles.cosHigh) {
                        c = bounded
                    } else {
                        c = regions.classify(r, latDeg: fix.lat, lonDeg: fix.lon, latRad: angles.latRad, lonRad: angles.lonRad, cosLat: angles.cosine())
                    }
                }
                if k < existing {
                    tracks[k].stamp = stamp
                    if case let .done(visit) = tracks[k].advance(c, at: t, confirmMs: confirm) {
                        Self.emit(visit, records, &out)
                        tracks[k].stamp = -1
                        finished = true
                    }
                } else if c == .inside {
                    tracks.append(RegionTrack.start(region: r32, at: t, confirmMs: confirm, stamp: stamp))
                }
            }
            // Regions with state that the index did not return are OUT for this fix.
            for k in 0..<existing where tracks[k].stamp != stamp && tracks[k].stamp != -1 {
                let r = Int(tracks[k].region)
                if groupCount > 1 && !state[Int(records[r].group)].usedNow { continue }
                if case let .done(visit) = tracks[k].advance(.outside, at: t, confirmMs: records[r].confirmMs) {
                    Self.emit(visit, records, &out)
                    tracks[k].stamp = -1
                    finished = true
                }
            }
            if finished {
                tracks.removeAll { $0.stamp == -1 }
                slots.invalidate()
            }
        }

        for g in 0..<groupCount where state[g].hasLast {
            if tEnd - state[g].last > groups[g].maxGapMs {
                Self.closeByGap(group: g, groupCount: groupCount, records, &tracks, &slots, &out)
            } else {
                for track in tracks where Int(records[Int(track.region)].group) == g { Self.emit(track.open(), records, &out) }
            }
        }
        if let resume {
            // What a later fix continues: every group's last used fix, and the tracks the
            // silence rule has not closed (those closed above stay closed: the next used fix
            // would close them at the same instants).
            var end = CrossingResume()
            for g in 0..<groupCount where state[g].hasLast {
                end.groups.append(.init(maxAccuracyBits: groups[g].maxAccuracyM.bitPattern, maxGapMs: groups[g].maxGapMs, last: state[g].last))
            }
            end.tracks = tracks.map { Self.resumed($0, records) }
            end.tracks.sort { ($0.campaign, $0.region) < ($1.campaign, $1.region) }
            resume.state.pointee = end
        }
        // (enter, region); a zero-length visit (confirm 0) before a later one of the same region and instant.
        for c in out.indices where out[c].count > 1 {
            out[c].sort { ($0.enter, $0.region, $0.exit ?? .max) < ($1.enter, $1.region, $1.exit ?? .max) }
        }
        return out
    }
}
