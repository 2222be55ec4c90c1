import XCTest
@testable import GeoCampaignCore

/// Decisions per day from the quarter-hour counts, and the interval's drawing.
final class ReportDayChartTests: XCTestCase {
    func testQuarterHoursAddUpIntoEveryDayFromFirstToLast() {
        let day: Int64 = 20_514  // 2026-03-02
        let q = { (d: Int64, quarter: Int64) in (d * 86_400_000) / CampaignTally.bucketMs + quarter }
        let counts: [Int64: [DecisionStatus: Int]] = [
            q(day, 0): [.delivered: 2], q(day, 95): [.delivered: 1, .capped: 4],
            q(day + 3, 10): [.heldOut: 1],
        ]
        let days = DayChart.days(counts)
        XCTAssertEqual(days.map(\.day), [day, day + 1, day + 2, day + 3], "days without decisions are there, at zero")
        XCTAssertEqual(days[0].counts, [.delivered: 3, .capped: 4], "the first and the last quarter hour of a day")
        XCTAssertEqual(days[1].counts, [:])
        XCTAssertEqual(days[3].counts, [.heldOut: 1])
        let svg = DayChart.svg(counts)
        XCTAssertEqual(svg.components(separatedBy: "<g class=\"day\"").count - 1, 4)
        XCTAssertTrue(svg.contains("data-day=\"2026-03-02\" data-total=\"7\""))
        XCTAssertTrue(svg.contains("<title>Mon 2 Mar 2026: 3 delivered, 4 capped</title>"))
        XCTAssertEqual(DayChart.svg([:]), "<p class=\"empty\">No decisions.</p>")
    }

    func testTheLiftChartDrawsTheIntervalAroundTheEstimateAndZero() throws {
        let l = Lift(treated: ArmCount(n: 200, converted: 60), holdout: ArmCount(n: 100, converted: 20))
        let svg = try XCTUnwrap(LiftChart.svg(l))
        XCTAssertTrue(svg.contains("class=\"ci\""))
        XCTAssertTrue(svg.contains("class=\"estimate\""))
        XCTAssertTrue(svg.contains("class=\"zero\""))
        XCTAssertTrue(svg.contains("data-low=\"-0.000895322168247"), svg)
        XCTAssertNil(LiftChart.svg(Lift(treated: ArmCount(n: 5, converted: 1), holdout: ArmCount(n: 0, converted: 0))), "no interval, no chart")
    }
}
