import XCTest
@testable import GeoCampaignCore

final class LoadingConformanceTests: XCTestCase {
    static let campaignsDir = "/work/shared/spec/examples/conformance-1/campaigns"

    func load() throws -> LoadResult {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.campaignsDir), "conformance examples not present")
        return CampaignLoader().load(paths: [Self.campaignsDir])
    }

    func testLoadsWithoutErrors() throws {
        let r = try load()
        for d in r.diagnostics { print(d) }
        XCTAssertFalse(r.hasErrors)
        XCTAssertEqual(r.errorCount, 0)
        XCTAssertEqual(r.campaignSet.campaigns.map(\.id), ["auto-insurance", "car-shoppers", "fitness-fuel", "lorrenzillos", "mall-events"])
        XCTAssertEqual(r.unreadablePaths, [])
    }
}
