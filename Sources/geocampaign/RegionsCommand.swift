import GeoCampaignCore

/// `geocampaign regions`: export the regions as GeoJSON (`--geojson`, the only format, is the
/// default).
struct RegionsCommand: Command {
    static let name = "regions"
    static let abstract = "Export the campaigns' regions as a GeoJSON FeatureCollection a map tool opens as is."
    static let usage = "geocampaign regions [PATH ...] [--campaigns PATH] [--geojson] [--output FILE]"
    static let options: [OptionSpec] = [
        .value("campaigns", "PATH", "A campaign folder or file, as a PATH argument is.", repeatable: true),
        .flag("geojson", "Print a GeoJSON FeatureCollection (RFC 7946), the only format and the default; circles become 64-sided polygons."),
        .value("output", "FILE", "Write there instead of stdout."),
    ]
    static let allowsPositionals = true
    static let discussion = "PATH is a campaign folder or file (or several); default: ./campaigns."
    static let example = "geocampaign regions campaigns --geojson > regions.geojson"

    var paths: [String]
    var output: String?

    init(_ a: ParsedArguments) throws {
        paths = CampaignPaths.of(a)
        output = a.value("output")
    }

    func run() throws -> ExitCode {
        let set = try CampaignLoading.load(paths).campaignSet
        let sink = try OutputSink(path: output)
        try sink.write(RegionsGeoJSON.featureCollection(set) + "\n")
        try sink.close()
        return .success
    }
}
