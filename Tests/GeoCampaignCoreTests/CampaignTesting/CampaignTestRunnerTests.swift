import XCTest
@testable import GeoCampaignCore

/// The test runner in-process: results per case, and the spans that `time` texts denote.
final class CampaignTestRunnerTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data/CampaignTests")

    func testEveryKindPassesAndItsMirrorFails() {
        let pass = CampaignTestRunner().run(path: root.appendingPathComponent("every-kind.yaml").path)
        XCTAssertFalse(pass.isBroken, pass.diagnostics.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(pass.cases.count, 5)
        XCTAssertEqual(pass.failedCount, 0)
        let fail = CampaignTestRunner().run(path: root.appendingPathComponent("every-kind-fails.yaml").path)
        XCTAssertEqual(fail.cases.count, 12)
        XCTAssertEqual(fail.failedCount, 12)
        XCTAssertTrue(fail.cases.allSatisfy { $0.failures.count == 1 })
        XCTAssertEqual(fail.zone.zone, "Europe/Zurich")
    }

    func testBrokenFilesRunNoCase() {
        let r = CampaignTestRunner().run(path: root.appendingPathComponent("broken-names.yaml").path)
        XCTAssertTrue(r.isBroken)
        XCTAssertTrue(r.cases.isEmpty)
        XCTAssertEqual(r.diagnostics.map(\.line), [5, 6, 9, 11, 12])
    }

    func testTimeSpans() throws {
        let z = try XCTUnwrap(LocalTimeFormat(zone: "Europe/Zurich"))
        func span(_ t: String) -> Interval? { TestTime(text: t, mark: SourceMark(line: 1, column: 1)).span(z) }
        let minute = try XCTUnwrap(span("2012-12-14 12:24"))
        XCTAssertEqual(minute.end - minute.start, 60_000)
        XCTAssertEqual(try XCTUnwrap(span("2012-12-14 12:24:05")).end - minute.start, 6_000)
        XCTAssertEqual(try XCTUnwrap(span("2012-12-14T11:24:00Z")).end - minute.start, 1_000)
        XCTAssertEqual(try XCTUnwrap(span("2012-12-14 12:24:00.25")).end - minute.start, 251)
        // A date is its whole local day, 23 hours on the day clocks jump forward.
        let day = try XCTUnwrap(span("2026-03-29"))
        XCTAssertEqual(day.end - day.start, 23 * 3_600_000)
        XCTAssertNil(span("noon"))
    }
}
