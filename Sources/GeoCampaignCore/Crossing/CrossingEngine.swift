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
    /// The per-fix loop over this campaign's regions (one tracking group).
    let core: CrossingCore

    /// Index over each region's box grown by its hysteresis plus `indexMarginM`.
    public var index: RegionIndex { core.index }

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
        let n = geos.count
        core = CrossingCore(geometries: geos, hysteresisM: params.hysteresisM, confirmMs: params.confirmMs,
                            group: [Int32](repeating: 0, count: n), campaign: [Int32](repeating: 0, count: n),
                            localRegion: (0..<n).map { Int32($0) },
                            groups: [CrossingCore.Group(maxAccuracyM: params.maxAccuracyM, maxGapMs: params.maxGapMs)],
                            campaignCount: 1)
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
    ///
    /// The loop reads regions and the index through plain pointers (no reference counting per
    /// fix) and allocates nothing per fix; a fix with no region box around it and no region
    /// with state costs at most one hash probe per index level, none when it stays in the cells
    /// of the previous fix.
    /// - Complexity: as `visits(fixes:tEnd:)` for arrays.
    public func visits(fixes: UnsafeBufferPointer<Fix>, tEnd: Int64) -> [Visit] {
        core.visits(fixes: fixes, tEnd: tEnd).first ?? []
    }
}
