import XCTest
@testable import GeoCampaignCore

final class DwelledConditionTests: XCTestCase {
    let regions = [region("lorrenzillos", tags: ["own"]), region("pizza")]
    let over30 = Condition.dwelled(DwelledCondition(selector: RegionSelector(regions: ["lorrenzillos"]), overMs: m(30)))

    func testStrictlyOver() {
        let cases: [(String, [Visit], Int64, Int64, [Interval])] = [
            ("45 minutes", [visit(0, m(0), m(45))], 0, m(100), [Interval(m(30), m(45))]),
            ("exactly over does not count", [visit(0, m(0), m(30))], 0, m(100), []),
            ("one ms more counts", [visit(0, m(0), m(30) + 1)], 0, m(100), [Interval(m(30), m(30) + 1)]),
            ("open visit long enough by last_seen", [visit(0, m(10), nil, lastSeen: m(41))], 0, m(100),
             [Interval(m(40), m(100) + 1)]),
            ("open visit: last_seen - enter == over does not count even if Tend is later",
             [visit(0, m(10), nil, lastSeen: m(40))], 0, m(100), []),
            ("dwell reached before T0 holds from T0", [visit(0, m(-60), m(10))], 0, m(100), [Interval(0, m(10))]),
            ("other region", [visit(1, m(0), m(90))], 0, m(100), []),
            ("dwell reached after Tend", [visit(0, m(80), m(120))], 0, m(100), []),
        ]
        for (name, visits, t0, tEnd, expected) in cases {
            XCTAssertEqual(ruleIntervals(over30, regions: regions, visits: visits, t0: t0, tEnd: tEnd), expected, name)
        }
        XCTAssertEqual(triggerTimes(over30, regions: regions, visits: [visit(0, m(-60), m(10))], t0: 0, tEnd: m(100)), [0])
    }

    func testEvidenceIsTheLongVisit() {
        let c = campaign(regions: regions, conditions: [over30])
        let visits = [visit(0, m(0), m(10)), visit(0, m(20), m(70))]
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: m(100))
        XCTAssertEqual(triggers.map(\.time), [m(50)])
        XCTAssertEqual(triggers.map(\.evidence), [[1]])
    }
}
