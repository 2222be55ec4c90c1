/// Everything loaded from a campaign folder: the campaigns and the (optional) settings file.
public struct CampaignSet: Sendable {
    /// Campaigns in the order their files were loaded (file name order within a folder).
    public var campaigns: [Campaign]
    /// Global settings; defaults when there is no settings file.
    public var settings: Settings

    /// Creates a campaign set.
    public init(campaigns: [Campaign], settings: Settings = Settings()) {
        self.campaigns = campaigns
        self.settings = settings
    }
}
