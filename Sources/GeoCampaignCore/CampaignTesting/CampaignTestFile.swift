/// One campaign test file (docs/testing-campaigns.md): the campaigns it tests and its cases.
///
///     campaigns: [../lorrenzillos.yaml, ../settings.yaml]
///     cases:
///       - name: Dina dines twice in a week and gets the loyalty offer
///         history:
///           - stay: { user: dina, at: lorrenzillos, from: 2026-11-16 18:50, for: 48m }
///           - stay: { user: dina, at: lorrenzillos, from: 2026-11-18 18:43, for: 48m }
///         expect:
///           - decision: { user: dina, offer: loyalty, between: [2026-11-18 19:00, 2026-11-18 19:10] }
public struct CampaignTestFile {
    /// The file, as named on the command line (or the folder joined with its name).
    public var path: String
    /// The campaign folders or files, resolved against the test file's folder.
    public var campaignPaths: [String]
    /// Where each campaign path was written.
    var campaignMarks: [SourceMark] = []
    /// `timezone:` for reading local times and writing them; nil: the campaigns' zone.
    public var timezone: String?
    /// Where `timezone:` was written.
    var timezoneMark: SourceMark?
    /// The cases in file order.
    public var cases: [CampaignTestCase]
    /// The test file's text, for quoting lines in problems found while running it.
    var source: SourceFile?
}

/// One case of a test file: a history and what must (not) happen.
public struct CampaignTestCase: Sendable {
    /// The case's name, as printed.
    public var name: String
    /// Where the case starts in its file.
    var mark: SourceMark
    /// The pieces of the history, in file order.
    var history: [TestHistoryItem]
    /// `until:` (or `now:`): replay the history as it stood at that instant.
    var until: TestTime?
    /// The expectations, in file order.
    var expectations: [TestExpectation]
}

/// A time as written in a test file, read once the zone is known (local times are in the
/// campaigns' zone).
struct TestTime: Sendable {
    var text: String
    var mark: SourceMark

    /// The span the text denotes: a date is its whole local day, `HH:MM` its minute, `HH:MM:SS`
    /// its second, a fraction its millisecond; nil when the text is not a time.
    func span(_ zone: LocalTimeFormat) -> Interval? {
        guard let start = zone.parse(text) else { return nil }
        let t = text.trimmingCharacters(in: .whitespaces)
        let clock = t.count > 10 ? String(t.dropFirst(11)) : ""
        let width: Int64
        if clock.isEmpty {
            guard let next = zone.parse(Self.nextDay(t)) else { return Interval(start, start + 86_400_000) }
            return Interval(start, next)
        } else if clock.contains(".") {
            width = 1
        } else if clock.prefix(8).filter({ $0 == ":" }).count >= 2 {
            width = 1000
        } else {
            width = 60_000
        }
        return Interval(start, start + width)
    }

    /// `2026-11-18` for `2026-11-17`.
    static func nextDay(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3 else { return date }
        let (y, m, d) = Timestamp.civil(fromDays: Timestamp.days(year: parts[0], month: parts[1], day: parts[2]) + 1)
        func pad(_ v: Int64, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }
}
