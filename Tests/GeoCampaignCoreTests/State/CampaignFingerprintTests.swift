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

    /// The settings' text (in every stored fingerprint and source key) is written field by
    /// field; it must be what `String(describing:)` of the settings printed, for every value.
    func testSettingsTextIsTheDescribedSettings() {
        func described(_ s: Settings) -> String {
            "limit \(String(describing: s.perUserLimit)) tracking \(String(describing: s.tracking))\n"
        }
        let doubles: [Double?] = [nil, 20, 0, -0.0, 0.5, 1e-7, 123.456, 1e21, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, 1.0 / 3]
        let ints: [Int64?] = [nil, 0, 1, 20_000, -5, .max, .min, 86_400_000]
        let caps: [Cap?] = [nil, Cap(count: 1), Cap(count: 3, perMs: 86_400_000), Cap(count: .max, perMs: .min)]
        var g = SplitMix(seed: 9)
        var seen = Set<String>()
        for k in 0..<400 {
            func pick<T>(_ xs: [T]) -> T { xs[Int(g.next() % UInt64(xs.count))] }
            let s = Settings(perUserLimit: k == 0 ? nil : pick(caps),
                             tracking: k == 0 ? Tracking() : Tracking(hysteresisM: pick(doubles), confirmMs: pick(ints), maxAccuracyM: pick(doubles), maxGapMs: pick(ints)))
            XCTAssertEqual(CampaignFingerprint.settingsText(s), described(s), "settings \(k)")
            seen.insert(described(s))
        }
        XCTAssertGreaterThan(seen.count, 300)
        XCTAssertEqual(CampaignFingerprint.settingsText(Settings()), "limit nil tracking Tracking(hysteresisM: nil, confirmMs: nil, maxAccuracyM: nil, maxGapMs: nil)\n")
    }
}
