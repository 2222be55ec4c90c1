// GeoJSON: the input as the file a campaign imports, through the import decoder (JSON parser,
// features, geometry checks, ids and names), with points given a radius.
// seeds: campaigns/regions/*.geojson Tests/GeoCampaignCoreTests/Fixtures/Loading/regions/*.geojson ../shared/spec/examples/*/*.geojson ../shared/spec/examples/*/*/*.geojson ../shared/data/*/*.geojson
@testable import GeoCampaignCore

let campaign = FuzzInput.write(Array("""
    campaign: fuzz
    regions:
      - import: regions.geojson
        radius: 150m
        tags: [x]
    rules:
      - id: r
        when: { inside: { tags: [x] } }
        offer: o
    offers:
      - id: o
    """.utf8), as: "campaign.yaml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = FuzzInput.write(FuzzInput.bytes(data, size), as: "regions.geojson")
    let result = CampaignLoader().load(paths: [campaign])
    for d in result.diagnostics { _ = d.description }
    return 0
}
