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
    var tags: Set<String> = []
    var offerIds: [String: SourceMark] = [:]
    var selectors: [RegionSelector] = []
    /// An import could not be read: unknown ids and tags are then not reported (they may be in it).
    var importFailed = false
    /// A rule could not be decoded: "unused" warnings are then not reported.
    var rulesIncomplete = false
    /// The default zone of `during`.
    var timezone = "UTC"
}
