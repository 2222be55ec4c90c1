/// What `CampaignLoader.load(paths:)` found: the model, every diagnostic, and the counts of the
/// `validate` summary.
public struct LoadResult: Sendable {
    /// The campaigns and settings decoded (best effort: a campaign with errors is included as
    /// far as it could be read; do not run it when `hasErrors`).
    public var campaignSet: CampaignSet
    /// Every error and warning of every file, files in load order, each file's by position.
    public var diagnostics: [Diagnostic]
    /// Paths given to `load(paths:)` that do not exist or cannot be opened (exit 66); each also
    /// has an error diagnostic.
    public var unreadablePaths: [String]

    /// Creates a result.
    public init(campaignSet: CampaignSet, diagnostics: [Diagnostic], unreadablePaths: [String] = []) {
        self.campaignSet = campaignSet
        self.diagnostics = diagnostics
        self.unreadablePaths = unreadablePaths
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// Number of error diagnostics.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// Number of warning diagnostics.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// Number of campaigns loaded.
    public var campaignCount: Int { campaignSet.campaigns.count }
    /// Number of regions over all campaigns (imports expanded).
    public var regionCount: Int { campaignSet.campaigns.reduce(0) { $0 + $1.regions.count } }
    /// Number of rules over all campaigns.
    public var ruleCount: Int { campaignSet.campaigns.reduce(0) { $0 + $1.rules.count } }
    /// Number of offers over all campaigns.
    public var offerCount: Int { campaignSet.campaigns.reduce(0) { $0 + $1.offers.count } }

    /// The `validate` summary, e.g. `5 campaigns, 30 regions, 14 rules, 14 offers: 0 errors, 4 warnings`.
    public var summary: String {
        func n(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "\(n(campaignCount, "campaign")), \(n(regionCount, "region")), \(n(ruleCount, "rule")), \(n(offerCount, "offer")): \(n(errorCount, "error")), \(n(warningCount, "warning"))"
    }
}
