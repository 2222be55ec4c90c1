import Foundation

/// Turns one user's fixes into visits of one campaign's regions (semantics.md 2).
///
/// Immutable after `init`; `visits(fixes:tEnd:)` keeps its state in locals, so one engine serves
/// every user on every thread.
public struct CrossingEngine: Sendable {
    /// The resolved parameters (precedence region > campaign > settings > default).
    public let parameters: CrossingParameters
    /// Compiled geometry per region, indexed as `Campaign.regions`.
    public let geometries: [RegionGeometry]
    /// Per region: the circle fast path (see `CircleClassifier`), or `isCircle == false`.
    let classifiers: [CircleClassifier]
    /// Index over each region's box grown by its hysteresis plus `indexMarginM`.
    public let index: RegionIndex

    /// Safety margin (meters) added to each region's hysteresis when growing its box for the index,
    /// covering rounding in the degrees-to-meters conversion.
    public static let indexMarginM = 1.0

    /// Compiles a campaign's regions and resolves its tracking parameters.
    /// - Complexity: O(total vertices + n log n) for n regions.
    public init(campaign: Campaign, settings: Settings) {
        self.init(shapes: campaign.regions.map(\.shape), parameters: CrossingParameters(campaign: campaign, settings: settings))
    }

    /// Compiles regions given by shape with already resolved parameters (one entry per shape).
    init(shapes: [Region.Shape], parameters params: CrossingParameters) {
        parameters = params
        let geos = shapes.map { RegionGeometry($0) }
        geometries = geos
        classifiers = geos.enumerated().map { $0.element.circleClassifier(hysteresisM: params.hysteresisM[$0.offset]) }
        var entries: [(box: BoundingBox, owner: Int32)] = []
        entries.reserveCapacity(geos.count)
        for (r, g) in geos.enumerated() {
            let grown = g.bounds(expandedByMeters: max(0, params.hysteresisM[r]) + CrossingEngine.indexMarginM)
            for part in grown.wrappedParts() { entries.append((part, Int32(r))) }
        }
        index = RegionIndex(entries: entries)
    }

    /// The class of a fix for region `r` (semantics.md 2.1), computed without the index.
    /// - Complexity: O(1) for circles, O(vertices) for polygons.
    public func fixClass(_ fix: Fix, region r: Int) -> FixClass {
        let d = geometries[r].placement(of: Coordinate(lat: fix.lat, lon: fix.lon)).depthM
        return FixClass(depthM: d, hysteresisM: parameters.hysteresisM[r])
    }

    /// The visits of one user.
    /// - Parameters:
    ///   - fixes: the user's accepted fixes in time order (equal times in input order), already cut
    ///     at `--until`. Fixes with accuracy worse than `max_accuracy` are skipped here.
    ///   - tEnd: the user's last accepted fix time (it may be a fix skipped for accuracy).
    /// - Returns: closed and open visits sorted by (enter, region index, exit).
    /// - Complexity: O(fixes x (index levels + regions near each fix + regions with state)).
    public func visits(fixes: [Fix], tEnd: Int64) -> [Visit] {
        fixes.withUnsafeBufferPointer { visits(fixes: $0, tEnd: tEnd) }
    }

    /// The visits of one user whose fixes are a slice of a larger array (no copy).
    /// - Complexity: as `visits(fixes:tEnd:)` for arrays.
    public func visits(fixes: ArraySlice<Fix>, tEnd: Int64) -> [Visit] {
        fixes.withUnsafeBufferPointer { visits(fixes: $0, tEnd: tEnd) }
    }

    /// The visits of one user whose fixes lie in contiguous memory (no copy).
    /// - Complexity: as `visits(fixes:tEnd:)` for arrays.
    public func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [Visit] {
        let maxAccuracy = parameters.maxAccuracyM
        let maxGap = parameters.maxGapMs
        var out: [Visit] = []
        var tracks: [RegionTrack] = []
        var candidates: [Int32] = []
        candidates.reserveCapacity(16)
        var lastUsed: Int64? = nil
        var stamp = 0

        parameters.hysteresisM.withUnsafeBufferPointer { hyst in
        parameters.confirmMs.withUnsafeBufferPointer { conf in
        geometries.withUnsafeBufferPointer { geo in
        classifiers.withUnsafeBufferPointer { fast in
            for fix in fixes where fix.isUsed(maxAccuracy: maxAccuracy) {
                let t = fix.time
                if let prev = lastUsed, t - prev > maxGap {
                    CrossingEngine.closeByGap(&tracks, into: &out)
                }
                lastUsed = t
                stamp += 1
                candidates.removeAll(keepingCapacity: true)
                index.query(lat: fix.lat, lon: fix.lon, into: &candidates)
                if candidates.isEmpty && tracks.isEmpty { continue }
                let latRad = Earth.radians(fix.lat), lonRad = Earth.radians(fix.lon)
                let cosLat = cos(latRad)
                let existing = tracks.count
                var finished = false
                for r32 in candidates {
                    let r = Int(r32)
                    let c: FixClass
                    if fast[r].isCircle {
                        c = fast[r].classify(latRad: latRad, lonRad: lonRad, cosLat: cosLat)
                    } else if let pc = geo[r].polygonClass(hysteresisM: hyst[r], latDeg: fix.lat, lonDeg: fix.lon,
                                                          latRad: latRad, lonRad: lonRad, cosLat: cosLat) {
                        c = pc
                    } else {
                        let d = geo[r].depth(latDeg: fix.lat, lonDeg: fix.lon, latRad: latRad, lonRad: lonRad, cosLat: cosLat)
                        c = FixClass(depthM: d, hysteresisM: hyst[r])
                    }
                    var k = 0
                    while k < existing && tracks[k].region != r32 { k += 1 }
                    if k < existing {
                        tracks[k].stamp = stamp
                        if case let .done(visit) = tracks[k].advance(c, at: t, confirmMs: conf[r]) {
                            if let visit { out.append(visit) }
                            tracks[k].stamp = -1
                            finished = true
                        }
                    } else if c == .inside {
                        tracks.append(RegionTrack.start(region: r32, at: t, confirmMs: conf[r], stamp: stamp))
                    }
                }
                // Regions with state that the index did not return are OUT for this fix.
                for k in 0..<existing where tracks[k].stamp != stamp && tracks[k].stamp != -1 {
                    let r = Int(tracks[k].region)
                    if case let .done(visit) = tracks[k].advance(.outside, at: t, confirmMs: conf[r]) {
                        if let visit { out.append(visit) }
                        tracks[k].stamp = -1
                        finished = true
                    }
                }
                if finished { tracks.removeAll { $0.stamp == -1 } }
            }
        }}}}

        if let last = lastUsed {
            if tEnd - last > maxGap {
                CrossingEngine.closeByGap(&tracks, into: &out)
            } else {
                for track in tracks { if let v = track.open() { out.append(v) } }
            }
        }
        // (enter, region); a zero-length visit (confirm 0) before a later one of the same region and instant.
        out.sort { ($0.enter, $0.region, $0.exit ?? .max) < ($1.enter, $1.region, $1.exit ?? .max) }
        return out
    }

    /// Ends a segment: every visit inside closes with reason `gap`; all tracks are dropped.
    static func closeByGap(_ tracks: inout [RegionTrack], into out: inout [Visit]) {
        for track in tracks { if let v = track.closedByGap() { out.append(v) } }
        tracks.removeAll(keepingCapacity: true)
    }
}
