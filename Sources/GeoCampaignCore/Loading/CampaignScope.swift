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
    /// Where each region id was first defined (put in words only when an id is used twice).
    var regionIds = RegionIdTable()
    var tags: Set<String> = []
    var offerIds: [String: SourceMark] = [:]
    var selectors: [RegionSelector] = []
    /// An import could not be read or no regions list was given: unknown ids and tags are then
    /// not reported (they may be in what is missing).
    var regionsIncomplete = false
    /// The campaign has no offers (reported once, at the campaign): rules naming one are not
    /// reported again.
    var offersMissing = false
    /// A rule could not be decoded: "unused" warnings are then not reported.
    var rulesIncomplete = false
    /// The default zone of `during`.
    var timezone = "UTC"
    /// A hash of the bytes parsed for the campaign: its file's, then each import's as read; nil
    /// when the loader does not hash them (`CampaignLoader.hashesSources`).
    var sourceHash: (UInt64, UInt64)?
}

/// Where a region id was defined.
enum RegionPlace {
    /// Written in the YAML file on this line.
    case line(Int)
    /// Feature `feature` (1-based) with id `id` of the GeoJSON `file` imported on line `line`.
    case imported(feature: Int, id: String, file: String, line: Int)

    /// In words: "on line 3", "by feature 2 ('x') of 'a.geojson', imported on line 6".
    var words: String {
        switch self {
        case .line(let l): return "on line \(l)"
        case let .imported(feature, id, file, line): return "by feature \(feature) ('\(id)') of '\(file)', imported on line \(line)"
        }
    }
}
