/// The resolved crossing parameters (semantics.md 2): `maxAccuracy` and `maxGap` per campaign,
/// `hysteresis` and `confirm` per region.
public struct CrossingParameters: Sendable, Equatable {
    /// Fixes with accuracy larger than this (meters) are not used.
    public var maxAccuracyM: Double
    /// Consecutive used fixes more than this apart (milliseconds) cut the track.
    public var maxGapMs: Int64
    /// Per region (index as in `Campaign.regions`): hysteresis in meters.
    public var hysteresisM: [Double]
    /// Per region: confirmation time in milliseconds.
    public var confirmMs: [Int64]

    /// Resolves the precedence region > campaign `tracking` > settings `tracking` > defaults.
    public init(campaign: Campaign, settings: Settings) {
        let level = campaign.tracking.over(settings.tracking).over(.defaults)
        let d = Tracking.defaults
        maxAccuracyM = level.maxAccuracyM ?? d.maxAccuracyM ?? 100
        maxGapMs = level.maxGapMs ?? d.maxGapMs ?? 1_800_000
        let h = level.hysteresisM ?? d.hysteresisM ?? 20
        let c = level.confirmMs ?? d.confirmMs ?? 20_000
        hysteresisM = campaign.regions.map { $0.hysteresisM ?? h }
        confirmMs = campaign.regions.map { $0.confirmMs ?? c }
    }

    /// Parameters given directly (per-region arrays of equal length).
    init(maxAccuracyM: Double, maxGapMs: Int64, hysteresisM: [Double], confirmMs: [Int64]) {
        self.maxAccuracyM = maxAccuracyM
        self.maxGapMs = maxGapMs
        self.hysteresisM = hysteresisM
        self.confirmMs = confirmMs
    }
}
