import Foundation
import XCTest
@testable import GeoCampaignCore

/// A state keeps each campaign's fingerprint by the bytes it was loaded from (the campaign's
/// file and its imports) and the settings, and uses it instead of computing the fingerprint
/// again when they are the same (state.md 1.3 unchanged: a change of bytes alone still continues).
final class CampaignSourceTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for sub in ["campaigns", "regions"] {
            try FileManager.default.copyItem(atPath: TestData.path("state-1/\(sub)"), toPath: dir.appendingPathComponent(sub).path)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func load(hashesSources: Bool = true) -> CampaignSet {
        let r = CampaignLoader(hashesSources: hashesSources).load(paths: [dir.appendingPathComponent("campaigns").path])
        XCTAssertFalse(r.hasErrors, "\(r.diagnostics)")
        return r.campaignSet
    }

    private func edit(_ path: String, _ change: (String) -> String) throws {
        let url = dir.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = change(text)
        XCTAssertNotEqual(changed, text, "\(path) is changed")
        try Data(changed.utf8).write(to: url)
    }

    private func computed(_ set: CampaignSet) -> [String: String] {
        Dictionary(uniqueKeysWithValues: set.campaigns.map { ($0.id, CampaignFingerprint.of($0, settings: set.settings)) })
    }

    private func taken(_ set: CampaignSet, cached: [String: String]) -> [String: String] {
        let f = StatefulDriver.Fingerprints(set, cached: cached)
        return Dictionary(uniqueKeysWithValues: zip(set.campaigns.map(\.id), f.values).map { ($0, $1) })
    }

    /// A load that does not hash its sources (every run but a stateful one) leaves the hash
    /// empty: a stateful run given such a set computes every fingerprint and keeps none by source.
    func testWithoutHashingNothingIsKeptBySource() {
        let plain = load(hashesSources: false), hashed = load()
        XCTAssertEqual(plain.campaigns.map(\.sourceHash), plain.campaigns.map { _ in "" })
        XCTAssertFalse(hashed.campaigns.contains { $0.sourceHash.isEmpty }, "the control: hashed, none empty")
        let fresh = StatefulDriver.Fingerprints(hashed, cached: [:])
        let bogus = fresh.bySource.mapValues { "cached-" + $0 }
        let f = StatefulDriver.Fingerprints(plain, cached: bogus)
        XCTAssertEqual(f.values, fresh.values, "computed, the same as from the hashed set")
        XCTAssertTrue(f.bySource.isEmpty)
        // The campaigns are otherwise the same.
        XCTAssertEqual(computed(plain), computed(hashed))
    }

    func testTheStoredFingerprintIsUsedOnlyForTheSameBytes() throws {
        let first = load()
        let truth = computed(first)
        let fresh = StatefulDriver.Fingerprints(first, cached: [:])
        XCTAssertEqual(taken(first, cached: [:]), truth, "nothing cached: all computed")
        XCTAssertEqual(fresh.bySource.count, first.campaigns.count)
        XCTAssertEqual(load().campaigns.map(\.sourceHash), first.campaigns.map(\.sourceHash), "the same bytes hash alike")

        // A cache whose values are not fingerprints shows which ones were taken from it.
        let bogus = fresh.bySource.mapValues { "cached-" + $0 }
        XCTAssertEqual(taken(load(), cached: bogus), truth.mapValues { "cached-" + $0 }, "the same bytes: all taken from the state")

        // Bytes changed, meaning not (a comment): computed again, and the same as before.
        try edit("campaigns/mall-events.yaml") { $0 + "\n# a note\n" }
        var got = taken(load(), cached: bogus)
        XCTAssertEqual(got["mall-events"], truth["mall-events"], "a comment: computed, unchanged")
        XCTAssertEqual(got["fitness-fuel"], "cached-" + truth["fitness-fuel"]!, "the others still taken from the state")

        // An imported file's geometry changed: its campaign is computed again, and differs.
        try edit("regions/car-dealers.geojson") { $0.replacingOccurrences(of: "-121.794094", with: "-121.794095") }
        got = taken(load(), cached: bogus)
        XCTAssertFalse(got["car-shoppers"]!.hasPrefix("cached-"), "an import's bytes are in the key")
        XCTAssertNotEqual(got["car-shoppers"], truth["car-shoppers"], "moved geometry changes the fingerprint")

        // The settings are in the key: all computed again.
        try edit("campaigns/settings.yaml") { $0.replacingOccurrences(of: "per_user: 3 per 24h", with: "per_user: 4 per 24h") }
        let changed = load()
        got = taken(changed, cached: bogus)
        XCTAssertEqual(got, computed(changed), "other settings: nothing taken from the state")
        XCTAssertNotEqual(got["fitness-fuel"], truth["fitness-fuel"])
    }

    /// The cache's table survives a commit, is made in a state from before it, and is what a
    /// run reads back.
    func testTheTableIsKeptAndMadeInAStateFromBefore() throws {
        let path = dir.appendingPathComponent("s.db").path
        let store = try StateStore(path: path, create: true)
        XCTAssertEqual(try store.sourceFingerprints(), [:])
        try store.begin()
        try store.setSourceFingerprints(["k1": "f1", "k2": "f2"])
        try store.commit()
        XCTAssertEqual(try StateStore(path: path, create: false).sourceFingerprints(), ["k1": "f1", "k2": "f2"])

        let old = dir.appendingPathComponent("old.db")
        try FileManager.default.copyItem(atPath: TestData.path("state-v1/after-batch-1.db"), toPath: old.path)
        let v1 = try StateStore(path: old.path, create: true)
        XCTAssertEqual(try v1.sourceFingerprints(), [:], "a state from before: no table, nothing cached")
        try v1.begin()
        try v1.setSourceFingerprints(["k": "f"])
        try v1.commit()
        XCTAssertEqual(try v1.sourceFingerprints(), ["k": "f"])
    }

    /// A state made by a build whose source hash was of version 1 (Tests/Data/state-hash1, made
    /// from these campaigns) keeps its fingerprints under keys that this build never makes: each
    /// misses once and is computed (and the run replaces the table with this build's keys).
    func testFingerprintsCachedByTheOldHashAreComputedAgain() throws {
        let copy = dir.appendingPathComponent("old.db").path
        try FileManager.default.copyItem(atPath: TestData.path("state-hash1/after-batch-1.db"), toPath: copy)
        let old = try StateStore(path: copy, create: false).sourceFingerprints()
        let set = load()
        XCTAssertEqual(old.count, set.campaigns.count)
        let truth = computed(set)
        XCTAssertEqual(Set(old.values), Set(truth.values), "the old build's fingerprints are this build's")

        // Negative control: the old keys are the version 1 hash of the same bytes (shown for the
        // campaigns without imports), so a build that kept that hash would take them.
        let settingsKey = CampaignFingerprint.settingsKey(set.settings)
        var checked = 0
        for c in set.campaigns where ["fitness-fuel", "mall-events"].contains(c.id) {
            let bytes = try Data(contentsOf: dir.appendingPathComponent("campaigns/\(c.id).yaml"))
            var h = BatchHash.start
            bytes.withUnsafeBytes { BatchHash.Version1.add($0, to: &h) }
            XCTAssertNotNil(old[CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1) + settingsKey], c.id)
            checked += 1
        }
        XCTAssertEqual(checked, 2)

        let bogus = old.mapValues { "cached-" + $0 }
        XCTAssertEqual(taken(set, cached: bogus), truth, "the old keys miss: all computed")
        let fresh = StatefulDriver.Fingerprints(set, cached: bogus)
        XCTAssertTrue(fresh.bySource.keys.allSatisfy { $0.hasPrefix(BatchHash.versionPrefix) })
        XCTAssertTrue(Set(fresh.bySource.keys).isDisjoint(with: old.keys), "the table the run writes has none of the old keys")
    }
}
