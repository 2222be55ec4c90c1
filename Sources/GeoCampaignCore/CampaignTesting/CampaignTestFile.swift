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
