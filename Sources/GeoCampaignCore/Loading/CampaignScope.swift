/// What the decoder knows about the campaign it is decoding, for cross-checks between regions,
/// rules and offers.
final class CampaignScope {
    /// Where a region came from, for warnings.
    enum Origin {
        case written(idMark: SourceMark)
        case imported(entry: Int, mark: SourceMark, file: String)
    }

    var regions: [Region] = []
    var origins: [Origin] = []
    /// First mark of each region id.
    var regionIds: [String: SourceMark] = [:]
    /// Where each region id was defined, in words ("on line 3", "by the import on line 6").
    var regionIdPlace: [String: String] = [:]
    var tags: Set<String> = []
    var offerIds: [String: SourceMark] = [:]
    var selectors: [RegionSelector] = []
    /// An import could not be read or no regions list was given: unknown ids and tags are then
    /// not reported (they may be in what is missing).
    var regionsIncomplete = false
    /// A rule could not be decoded: "unused" warnings are then not reported.
    var rulesIncomplete = false
    /// The default zone of `during`.
    var timezone = "UTC"
}
