import XCTest
@testable import GeoCampaignCore

final class InsideConditionTests: XCTestCase {
    let regions = [region("mall", tags: ["shopping"]), region("gym", tags: ["fitness"]), region("park")]

    func testIntervalsAndTriggers() {
        let mall = Condition.inside(InsideCondition(selector: RegionSelector(regions: ["mall"])))
        let shopOrFit = Condition.inside(InsideCondition(selector: RegionSelector(tags: ["shopping", "fitness"])))
        let cases: [(String, Condition, [Visit], Int64, Int64, [Interval], [Int64])] = [
            ("closed visit", mall, [visit(0, m(10), m(30))], 0, m(100), [Interval(m(10), m(30))], [m(10)]),
            ("open visit holds through Tend", mall, [visit(0, m(50), nil, lastSeen: m(60))], 0, m(100),
             [Interval(m(50), m(100) + 1)], [m(50)]),
            ("exit at Tend: not holding at Tend", mall, [visit(0, m(50), m(100))], 0, m(100), [Interval(m(50), m(100))], [m(50)]),
            ("open visit entered at Tend triggers at Tend", mall, [visit(0, m(100), nil)], 0, m(100),
             [Interval(m(100), m(100) + 1)], [m(100)]),
            ("true at T0 triggers at T0", mall, [visit(0, m(-10), m(20))], 0, m(100), [Interval(0, m(20))], [0]),
            ("other regions ignored", mall, [visit(1, m(10), m(30)), visit(2, m(40), m(50))], 0, m(100), [], []),
            ("tags: overlapping visits merge", shopOrFit, [visit(0, m(10), m(30)), visit(1, m(20), m(40))], 0, m(100),
             [Interval(m(10), m(40))], [m(10)]),
            ("tags: touching visits are one interval", shopOrFit, [visit(0, m(10), m(30)), visit(1, m(30), m(40))], 0, m(100),
             [Interval(m(10), m(40))], [m(10)]),
            ("re-entry triggers again", mall, [visit(0, m(10), m(30)), visit(0, m(31), m(40))], 0, m(100),
             [Interval(m(10), m(30)), Interval(m(31), m(40))], [m(10), m(31)]),
            ("visit after Tend ignored", mall, [visit(0, m(200), m(300))], 0, m(100), [], []),
        ]
        for (name, cond, visits, t0, tEnd, intervals, triggers) in cases {
            XCTAssertEqual(ruleIntervals(cond, regions: regions, visits: visits, t0: t0, tEnd: tEnd), intervals, name)
            XCTAssertEqual(triggerTimes(cond, regions: regions, visits: visits, t0: t0, tEnd: tEnd), triggers, name)
        }
    }

    func testEvidenceIsTheVisitsHoldingAtTheTrigger() {
        let c = campaign(regions: regions, conditions: [.inside(InsideCondition(selector: RegionSelector(tags: ["shopping", "fitness"])))])
        let visits = [visit(1, m(20), m(40)), visit(0, m(10), m(30)), visit(0, m(50), nil)]
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 3).triggers(visits: visits, t0: 0, tEnd: m(60))
        XCTAssertEqual(triggers, [Trigger(time: m(10), campaign: 3, rule: 0, evidence: [1]),
                                  Trigger(time: m(50), campaign: 3, rule: 0, evidence: [2])])
    }
}
