/// One piece of a test case's history (docs/testing-campaigns.md, "history").
enum TestHistoryItem: Sendable {
    /// `fixes: |` JSON Lines written inline; `firstLine` is the file line of the first one.
    case lines(text: String, firstLine: Int, mark: SourceMark)
    /// `file: PATH` (JSON Lines, or GPX by extension), resolved against the test file's folder;
    /// `user` names a GPX file's user.
    case file(path: String, user: String?, mark: SourceMark)
    /// `stay:` fixes at a point well inside a region.
    case stay(Stay)
    /// `trip:` fixes along the straight line between two regions.
    case trip(Trip)

    /// `stay: {user, at: REGION, from: TIME, for: DURATION, every: DURATION}`.
    struct Stay: Sendable {
        var user: String
        var region: String
        var regionMark: SourceMark
        var from: TestTime
        var forMs: Int64
        var everyMs: Int64
        var accuracyM: Double?
    }

    /// `trip: {user, from_region, to_region, departs: TIME, takes: DURATION, every: DURATION}`.
    struct Trip: Sendable {
        var user: String
        var fromRegion: String
        var fromMark: SourceMark
        var toRegion: String
        var toMark: SourceMark
        var departs: TestTime
        var takesMs: Int64
        var everyMs: Int64
    }

    /// The default spacing of the fixes of a stay or trip.
    static let defaultEveryMs: Int64 = 30_000
}
