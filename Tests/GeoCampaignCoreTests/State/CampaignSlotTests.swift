import Foundation
import XCTest
@testable import GeoCampaignCore

/// state.md 1.3: a campaign new to the state gets a slot no campaign had before, so the records
/// of users not seen since a campaign was dropped are never read as the new campaign's.
final class CampaignSlotTests: XCTestCase {
    func testADroppedCampaignsSlotIsNotGivenToANewOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-slots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = StatefulEquivalenceTests.campaigns
        XCTAssertGreaterThanOrEqual(all.campaigns.count, 3)
        let (a, b, c) = (all.campaigns[0], all.campaigns[1], all.campaigns[2])
        let store = try StateStore(path: dir.appendingPathComponent("state.db").path, create: true)
        var slotOf: [String: Int] = [:]
        for (run, set) in [[a, b], [a], [a, c], [a, c]].enumerated() {
            try store.begin()
            let (entries, known) = try StatefulDriver.reconcile(store: store, campaigns: CampaignSet(campaigns: set, settings: all.settings), runs: run)
            try store.setCampaigns(entries)
            try store.commit()
            for e in entries {
                if let s = slotOf[e.id] { XCTAssertEqual(e.slot, s, "run \(run + 1): \(e.id) keeps its slot") }
                slotOf[e.id] = e.slot
            }
            XCTAssertEqual(Set(known.keys), Set(entries.filter { $0.sinceRun <= run }.map(\.slot)), "run \(run + 1): the slots known before it")
        }
        XCTAssertEqual(Set(slotOf.values).count, 3, "\(slotOf): b's slot is not reused for c")
    }
}
