/// Crossing-engine parameters (semantics 2). Every field is optional at campaign and settings level;
/// `resolved(...)` applies the precedence region > campaign > settings > default.
public struct Tracking: Sendable, Equatable {
    /// Hysteresis in meters.
    public var hysteresisM: Double?
    /// Confirmation time in milliseconds.
    public var confirmMs: Int64?
    /// Fixes with a larger accuracy (meters) are not used.
    public var maxAccuracyM: Double?
    /// A longer silence (milliseconds) between used fixes breaks the track.
    public var maxGapMs: Int64?

    /// Creates tracking parameters; nil fields fall back to the next level.
    public init(hysteresisM: Double? = nil, confirmMs: Int64? = nil, maxAccuracyM: Double? = nil, maxGapMs: Int64? = nil) {
        self.hysteresisM = hysteresisM
        self.confirmMs = confirmMs
        self.maxAccuracyM = maxAccuracyM
        self.maxGapMs = maxGapMs
    }

    /// The defaults of semantics 2: 20 m, 20 s, 100 m, 30 min.
    public static let defaults = Tracking(hysteresisM: 20, confirmMs: 20_000, maxAccuracyM: 100, maxGapMs: 30 * 60_000)

    /// This level's values where set, else `fallback`'s.
    public func over(_ fallback: Tracking) -> Tracking {
        Tracking(hysteresisM: hysteresisM ?? fallback.hysteresisM,
                 confirmMs: confirmMs ?? fallback.confirmMs,
                 maxAccuracyM: maxAccuracyM ?? fallback.maxAccuracyM,
                 maxGapMs: maxGapMs ?? fallback.maxGapMs)
    }
}
