import GeoCampaignCore

/// `geocampaign regions --geojson`: export the regions as GeoJSON.
struct RegionsCommand: Command {
    static let name = "regions"
    static let abstract = "Export the campaigns' regions as a GeoJSON FeatureCollection a map tool opens as is."
    static let usage = "geocampaign regions [PATH ...] --geojson [--output FILE]"
    static let options: [OptionSpec] = [
        .flag("geojson", "Print a GeoJSON FeatureCollection (RFC 7946); circles become 64-sided polygons."),
        .value("output", "FILE", "Write there instead of stdout."),
    ]
    static let allowsPositionals = true
    static let discussion = "PATH is a campaign folder or file; default: ./campaigns."
    static let example = "geocampaign regions campaigns --geojson > regions.geojson"

    var paths: [String]
    var output: String?

    init(_ a: ParsedArguments) throws {
        guard a.flag("geojson") else { throw CLIError.usage("regions needs --geojson (the only output format)", Self.usage) }
        paths = a.positionals.isEmpty ? ["campaigns"] : a.positionals
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
