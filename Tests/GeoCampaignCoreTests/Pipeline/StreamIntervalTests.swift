import XCTest
@testable import GeoCampaignCore

/// `stream --commit-every` and `--idle-after` values (docs/stream.md): campaign durations, and for
/// the commit interval also whole milliseconds.
final class StreamIntervalTests: XCTestCase {
    func testCommitIntervalsInMillisecondsAndCampaignDurations() {
        XCTAssertEqual(StreamDriver.commitInterval("500ms"), 500)
        XCTAssertEqual(StreamDriver.commitInterval("1ms"), 1)
        XCTAssertEqual(StreamDriver.commitInterval("1s"), 1_000)
        XCTAssertEqual(StreamDriver.commitInterval("2m"), 120_000)
        for bad in ["0ms", "0s", "ms", "-5ms", "1.5ms", "５ms", "9999999999999ms", "", "soon"] {
            XCTAssertNil(StreamDriver.commitInterval(bad), bad)
        }
    }

    func testIdleIntervals() {
        XCTAssertEqual(StreamDriver.idleInterval("never"), .max)
        XCTAssertEqual(StreamDriver.idleInterval("0s"), 0)
        XCTAssertEqual(StreamDriver.idleInterval("1h"), 3_600_000)
        XCTAssertNil(StreamDriver.idleInterval("sometimes"))
    }
}
