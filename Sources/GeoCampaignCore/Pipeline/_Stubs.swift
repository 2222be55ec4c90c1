// Temporary stand-ins until the helpers' branches are merged; deleted at merge.
public struct History {
    public var userIds: [String] = []
    public var fixes: [[Fix]] = []
    public init() {}
}
public struct CrossingEngine {
    public init(campaign: Campaign, settings: Settings) {}
    public func visits(fixes: [Fix], tEnd: Int64) -> [Visit] { [] }
}
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
public enum RejectReason: String, CaseIterable { case invalid_json }
public struct HistoryStats {
    public var linesRead = 0
    public var accepted = 0
    public var rejected: [RejectReason: Int] = [:]
}
public struct RejectedLine {
    public var file: String
    public var line: Int
    public var reason: RejectReason
    public var detail: String
    public var text: [UInt8]
}
public struct HistoryReader {
    public init(fieldMap: [String: String]) {}
    public mutating func readJSONLines(path: String, onReject: (RejectedLine) -> Void) throws {}
    public mutating func readGPX(path: String, user: String, startMs: Int64, onReject: (RejectedLine) -> Void) throws {}
    public mutating func finish() -> (History, HistoryStats) { (History(), HistoryStats()) }
    public static func parseRFC3339(_ s: String) -> Int64? { nil }
}
public enum RegionsGeoJSON {
    public static func featureCollection(_ set: CampaignSet) -> String { "" }
}
public enum RejectsWriter {
    public static func append(_ r: RejectedLine, to out: inout [UInt8]) {}
}
