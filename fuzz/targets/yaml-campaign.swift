// YAML campaign file: the input as one campaign file through CampaignLoader (libyaml, the node
// tree, the decoder and every check), from a file of its own in a private folder.
// seeds: campaigns/*.yaml Tests/GeoCampaignCoreTests/Fixtures/Loading/*/*.yaml ../shared/spec/examples/*/*.yaml ../shared/spec/examples/*/*/*.yaml
@testable import GeoCampaignCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCampaign(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = FuzzInput.write(FuzzInput.bytes(data, size), as: "campaign.yaml")
    let result = CampaignLoader().load(paths: [path])
    for d in result.diagnostics { _ = d.description }
    return 0
}
