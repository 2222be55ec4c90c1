// GPX: the whole file through GPXReader (libxml2's reader, the tag locator, the point checks).
// seeds: Tests/GeoCampaignCoreTests/Fixtures/History/*.gpx Tests/Data/tracks/*/*.gpx examples/*.gpx
@testable import GeoCampaignCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let result = try? GPXReader.parse(bytes: bytes, path: "fuzz.gpx") else { return 0 }
    for case .rejected(let r) in result.items {
        precondition(r.line >= 1 && r.text.count <= GPXTagLocator.maxExcerpt, "reject out of bounds: \(r)")
    }
    return 0
}
