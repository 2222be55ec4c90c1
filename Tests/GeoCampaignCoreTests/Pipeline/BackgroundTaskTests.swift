import Dispatch
import Foundation
import XCTest
@testable import GeoCampaignCore

/// `BackgroundTask`: on the global queue, at once, or on a thread of its own.
final class BackgroundTaskTests: XCTestCase {
    func testTheValueIsTheWorksWhereverItRuns() {
        XCTAssertEqual(BackgroundTask { 6 * 7 }.value, 42)
        XCTAssertEqual(BackgroundTask(inBackground: false) { 6 * 7 }.value, 42)
        XCTAssertEqual(BackgroundTask(.ownThread("test-own")) { 6 * 7 }.value, 42)
        // Not in the background: the work has run when the task is made.
        var ran = false
        let now = BackgroundTask(inBackground: false) { ran = true }
        XCTAssertTrue(ran)
        now.value
    }

    /// The campaigns' loading waits for steps it puts on the global queue, while the parts of a
    /// history keep that queue's workers busy: it runs on a thread of its own, not on a worker.
    func testOwnThreadIsANewThreadOfThatName() {
        XCTAssertEqual(BackgroundTask(.ownThread("test-campaigns")) { Thread.current.name }.value, "test-campaigns")
        XCTAssertNotEqual(BackgroundTask { Thread.current.name }.value, "test-campaigns")
    }
}
