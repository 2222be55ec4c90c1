import XCTest
@testable import GeoCampaignCore

final class TrackingTests: XCTestCase {
    func testPrecedenceFillsOnlyMissingFields() {
        let campaign = Tracking(hysteresisM: 25, confirmMs: nil)
        let settings = Tracking(hysteresisM: 10, confirmMs: 5_000, maxGapMs: 60_000)
        let r = campaign.over(settings).over(.defaults)
        XCTAssertEqual(r, Tracking(hysteresisM: 25, confirmMs: 5_000, maxAccuracyM: 100, maxGapMs: 60_000))
    }
}
