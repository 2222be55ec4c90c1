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

    /// With every worker of the global queue waiting (as the parts of a history keep them busy),
    /// work on its own thread still runs, and so does what it puts on the queue once a worker
    /// is free.
    func testOwnThreadRunsWhileEveryWorkerWaits() {
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global().async(group: group) {
                started.signal()
                release.wait()
            }
        }
        for _ in 0..<workers { started.wait() }
        let task = BackgroundTask(.ownThread("test-busy")) { (1...1000).reduce(0, +) }
        // Waited for on another thread, so that a task stuck behind the workers fails the test
        // instead of hanging it (the workers are let go only after).
        let got = DispatchSemaphore(value: 0)
        Thread { XCTAssertEqual(task.value, 500_500); got.signal() }.start()
        XCTAssertEqual(got.wait(timeout: .now() + 60), .success, "the task ran while every worker waited")
        for _ in 0..<workers { release.signal() }
        group.wait()
    }
}
