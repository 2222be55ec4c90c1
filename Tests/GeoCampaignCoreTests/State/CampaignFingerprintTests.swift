import XCTest
@testable import GeoCampaignCore

/// Fingerprints are kept in every state (state.md 1.3): a build that computed them otherwise
/// would make every campaign of an existing state start afresh. The values below were written
/// by the build before the fingerprint was computed piece by piece (main at 7d13f96).
final class CampaignFingerprintTests: XCTestCase {
    func testFingerprintsAreThoseOfEarlierBuilds() {
        let set = CampaignLoader().load(paths: [TestData.path("state-1/campaigns")]).campaignSet
        let got = Dictionary(uniqueKeysWithValues: set.campaigns.map { ($0.id, CampaignFingerprint.of($0, settings: set.settings)) })
        XCTAssertEqual(got, [
            "auto-insurance": "fe22a4baed1cc7d8",
            "car-shoppers": "412616168d4f90c7",
            "fitness-fuel": "26f7888eb07f8d75",
            "lorrenzillos": "72714fec7ce7cd7f",
            "mall-events": "3dbd1a2775615fea",
        ])
    }

    /// A changed tag or override of one region changes the fingerprint, though the region's
    /// line text is shared with the regions that have the same tags.
    func testARegionsTagsAndOverridesCount() {
        let set = CampaignLoader().load(paths: [TestData.path("state-1/campaigns")]).campaignSet
        guard var c = set.campaigns.first(where: { $0.regions.count > 1 }) else { return XCTFail("a campaign with regions") }
        let base = CampaignFingerprint.of(c, settings: set.settings)
        var seen: Set<String> = [base]
        c.regions[1].tags.append("new-tag")
        XCTAssertTrue(seen.insert(CampaignFingerprint.of(c, settings: set.settings)).inserted, "a tag")
        c.regions[1].hysteresisM = 33
        XCTAssertTrue(seen.insert(CampaignFingerprint.of(c, settings: set.settings)).inserted, "hysteresis")
        c.regions[1].confirmMs = 61_000
        XCTAssertTrue(seen.insert(CampaignFingerprint.of(c, settings: set.settings)).inserted, "confirm")
    }
}
