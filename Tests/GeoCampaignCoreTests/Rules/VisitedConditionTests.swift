import XCTest
@testable import GeoCampaignCore

final class VisitedConditionTests: XCTestCase {
    let regions = [region("dealer-1", tags: ["car-dealer"]), region("dealer-7", tags: ["car-dealer"]),
                   region("dealer-4", tags: ["car-dealer"]), region("diner")]

    func visited(atLeast: Int = 1, distinct: Bool = false, within: Int64? = nil, minDwell: Int64 = 0) -> Condition {
        .visited(VisitedCondition(selector: RegionSelector(tags: ["car-dealer"]), atLeast: atLeast, distinct: distinct,
                                  withinMs: within, minDwellMs: minDwell))
    }

    func testCounting() {
        let cases: [(String, Condition, [Visit], [Interval])] = [
            ("default: first visit, forever", visited(), [visit(0, m(10), m(20))], [Interval(m(10), m(1000) + 1)]),
            ("min_dwell: occurrence at enter + min_dwell", visited(minDwell: m(5)), [visit(0, m(10), m(20))],
             [Interval(m(15), m(1000) + 1)]),
            ("min_dwell: duration equal to min_dwell qualifies", visited(minDwell: m(10)), [visit(0, m(10), m(20))],
             [Interval(m(20), m(1000) + 1)]),
            ("min_dwell: 1 ms short does not", visited(minDwell: m(10) + 1), [visit(0, m(10), m(20))], []),
            ("within: each visit covers [q, q + within)", visited(within: m(60)), [visit(0, m(10), m(20))],
             [Interval(m(10), m(70))]),
            ("two visits, second at q + within - 1 ms: holds 1 ms", visited(atLeast: 2, within: m(60)),
             [visit(0, m(0), m(5)), visit(1, m(60) - 1, m(70))], [Interval(m(60) - 1, m(60))]),
            ("second visit exactly at q + within: window expired", visited(atLeast: 2, within: m(60)),
             [visit(0, m(0), m(5)), visit(1, m(60), m(70))], []),
            ("distinct: same region twice counts once", visited(atLeast: 2, distinct: true, within: m(600)),
             [visit(0, m(0), m(5)), visit(0, m(30), m(40))], []),
            ("not distinct: same region twice counts twice", visited(atLeast: 2, within: m(600)),
             [visit(0, m(0), m(5)), visit(0, m(30), m(40))], [Interval(m(30), m(600))]),
            ("distinct: three dealers", visited(atLeast: 3, distinct: true, within: m(600), minDwell: m(5)),
             [visit(0, m(0), m(20)), visit(1, m(100), m(130)), visit(0, m(200), m(210)), visit(2, m(300), m(340))],
             [Interval(m(305), m(705))]),  // dealer-1 again at 205 keeps it until 805
            ("distinct: 4-minute stay does not qualify", visited(atLeast: 3, distinct: true, within: m(600), minDwell: m(5)),
             [visit(0, m(0), m(20)), visit(1, m(100), m(130)), visit(2, m(300), m(304))], []),
            ("open visit counts by last_seen", visited(minDwell: m(5)), [visit(0, m(990), nil, lastSeen: m(996))],
             [Interval(m(995), m(1000) + 1)]),
            ("open visit too short by last_seen", visited(minDwell: m(5)), [visit(0, m(990), nil, lastSeen: m(994))], []),
            ("non-matching region ignored", visited(), [visit(3, m(10), m(20))], []),
            ("count drops below and rises again", visited(atLeast: 2, within: m(60)),
             [visit(0, m(0), m(1)), visit(1, m(10), m(11)), visit(2, m(100), m(101)), visit(0, m(120), m(121))],
             [Interval(m(10), m(60)), Interval(m(120), m(160))]),
        ]
        for (name, cond, visits, expected) in cases {
            XCTAssertEqual(ruleIntervals(cond, regions: regions, visits: visits, t0: 0, tEnd: m(1000)), expected, name)
        }
    }

    func testTrueAtT0TriggersAtT0() {
        let visits = [visit(0, m(-100), m(-90)), visit(1, m(-50), m(-40))]
        XCTAssertEqual(triggerTimes(visited(atLeast: 2, within: m(200)), regions: regions, visits: visits, t0: 0, tEnd: m(1000)), [0])
    }

    func testEvidenceListsQualifyingVisitsCoveringTheTrigger() {
        let c = campaign(regions: regions, conditions: [visited(atLeast: 2, distinct: true, within: m(60), minDwell: m(5))])
        let visits = [visit(0, m(0), m(3)),      // too short
                      visit(0, m(1), m(10)),     // q = 6, covers [6, 66)
                      visit(1, m(90), m(110)),   // q = 95, while dealer-4 (q = 45) still covers
                      visit(2, m(20), m(30)),    // q = 25
                      visit(2, m(40), m(50))]    // q = 45
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: m(1000))
        XCTAssertEqual(triggers.map(\.time), [m(25), m(95)])
        XCTAssertEqual(triggers.map(\.evidence), [[1, 3], [4, 2]])
    }
}
