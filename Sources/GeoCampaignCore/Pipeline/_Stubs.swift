// Temporary stand-ins until the helpers' branches are merged; deleted at merge.
public struct Diagnostic: CustomStringConvertible {
    public var isError = true
    public var description: String { "" }
}
public struct LoadResult {
    public var campaignSet = CampaignSet(campaigns: [])
    public var diagnostics: [Diagnostic] = []
    public var hasErrors = false
}
public struct CampaignLoader {
    public init() {}
    public func load(paths: [String]) -> LoadResult { LoadResult() }
}
public enum RegionsGeoJSON {
    public static func featureCollection(_ set: CampaignSet) -> String { "" }
}
