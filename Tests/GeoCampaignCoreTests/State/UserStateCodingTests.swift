import XCTest
@testable import GeoCampaignCore

/// The user record round-trips, whatever the campaigns' slot numbers (they grow by one with each
/// campaign change, state.md 1.3) and with the seeds' ids written once each.
final class UserStateCodingTests: XCTestCase {
    static func state() -> UserState {
        var s = UserState(t0: 1_000, campaignCount: 2)
        s.tEnd = 9_000
        s.settled = 8_000
        s.held = 70
        s.crossing.groups = [.init(maxAccuracyBits: 42, maxGapMs: 600_000, last: 8_500)]
        s.campaigns[0].visits = [Visit(region: 3, enter: 2_000, exit: 3_000, lastSeen: 3_000, reason: .left)]
        s.crossing.tracks = [.init(campaign: 1, region: 0, kind: .inside, a: 8_000, b: 8_900)]
        s.seeds = [
            .init(time: 2_500, delivered: true, campaignId: "c-a", offerId: "o-1", ruleId: "r-1"),
            .init(time: 2_600, delivered: false, campaignId: "c-a", offerId: "o-1", ruleId: "r-2"),
            .init(time: 2_700, delivered: true, campaignId: "c-b", offerId: "o-1", ruleId: "r-1"),
        ]
        return s
    }

    func testARecordRoundTripsWithLargeSlotsAndManyHeldDecisions() {
        let s = Self.state()
        for slots in [[1, 2], [5_000, 70_000]] {
            let record = s.encoded(slots: slots)
            let back = UserState.decoded(record, campaignOfSlot: [slots[0]: 0, slots[1]: 1], campaignCount: 2)
            XCTAssertEqual(back, s, "slots \(slots)")
        }
    }

    /// Instants are written as differences: extreme ones (a new user's horizon, an entering
    /// track's zero, visits out of order) round-trip too.
    func testExtremeInstantsRoundTrip() {
        var s = Self.state()
        s.settled = .min
        s.t0 = .min + 1
        s.tEnd = .max
        s.crossing.tracks.append(.init(campaign: 0, region: 7, kind: .entering, a: .max, b: 0))
        s.campaigns[1].visits = [Visit(region: 1, enter: 5_000, exit: .max, lastSeen: .max, reason: .gap),
                                 Visit(region: 0, enter: -5, exit: -1, lastSeen: -1, reason: .left)]
        s.seeds[1].time = .min
        let back = UserState.decoded(s.encoded(slots: [1, 2]), campaignOfSlot: [1: 0, 2: 1], campaignCount: 2)
        XCTAssertEqual(back, s)
    }

    func testADamagedRecordIsNil() {
        let record = Self.state().encoded(slots: [1, 2])
        for cut in [1, 10, record.count / 2, record.count - 1] {
            XCTAssertNil(UserState.decoded(Array(record.prefix(cut)), campaignOfSlot: [1: 0, 2: 1], campaignCount: 2), "cut at \(cut)")
        }
        var badIndex = record
        badIndex[badIndex.count - 1] = 9 // the last seed's rule index points past the id table
        XCTAssertNil(UserState.decoded(badIndex, campaignOfSlot: [1: 0, 2: 1], campaignCount: 2))
    }
}
