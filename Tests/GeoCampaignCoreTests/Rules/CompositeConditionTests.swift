import XCTest
@testable import GeoCampaignCore

final class CompositeConditionTests: XCTestCase {
    let regions = [region("mall"), region("juice-bar"), region("gym")]
    func inside(_ id: String) -> Condition { .inside(InsideCondition(selector: RegionSelector(regions: [id]))) }

    func testAllAnyNot() {
        let visits = [visit(0, m(10), m(60)), visit(1, m(30), m(40)), visit(2, m(70), m(80))]
        let cases: [(String, Condition, [Interval])] = [
            ("all = intersection", .all([inside("mall"), inside("juice-bar")]), [Interval(m(30), m(40))]),
            ("any = union", .any([inside("mall"), inside("gym")]), [Interval(m(10), m(60)), Interval(m(70), m(80))]),
            ("not = complement within [T0, Tend]", .not(inside("mall")), [Interval(0, m(10)), Interval(m(60), m(100) + 1)]),
            ("mall but not juice-bar", .all([inside("mall"), .not(inside("juice-bar"))]),
             [Interval(m(10), m(30)), Interval(m(40), m(60))]),
            ("double negation", .not(.not(inside("mall"))), [Interval(m(10), m(60))]),
            ("empty all is the whole timeline", .all([]), [Interval(0, m(100) + 1)]),
            ("empty any is nothing", .any([]), []),
            ("De Morgan", .not(.any([inside("mall"), inside("gym")])),
             [Interval(0, m(10)), Interval(m(60), m(70)), Interval(m(80), m(100) + 1)]),
        ]
        for (name, cond, expected) in cases {
            XCTAssertEqual(ruleIntervals(cond, regions: regions, visits: visits, t0: 0, tEnd: m(100)), expected, name)
        }
        let deMorgan = Condition.all([.not(inside("mall")), .not(inside("gym"))])
        XCTAssertEqual(ruleIntervals(deMorgan, regions: regions, visits: visits, t0: 0, tEnd: m(100)),
                       ruleIntervals(.not(.any([inside("mall"), inside("gym")])), regions: regions, visits: visits, t0: 0, tEnd: m(100)))
    }

    func testNotOfNothingTriggersAtT0Once() {
        XCTAssertEqual(triggerTimes(.not(inside("gym")), regions: regions, visits: [], t0: m(5), tEnd: m(100)), [m(5)])
    }

    func testEvidenceComesFromThePartsHoldingAtTheTrigger() {
        let c = campaign(regions: regions, conditions: [
            .all([inside("mall"), .not(inside("juice-bar"))]),
            .any([inside("mall"), inside("gym")]),
        ])
        let visits = [visit(0, m(10), m(60)), visit(1, m(30), m(40)), visit(2, m(50), m(80))]
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: m(100))
        XCTAssertEqual(triggers, [
            Trigger(time: m(10), campaign: 0, rule: 0, evidence: [0]),
            Trigger(time: m(10), campaign: 0, rule: 1, evidence: [0]),
            Trigger(time: m(40), campaign: 0, rule: 0, evidence: [0]),
        ])
    }

    func testActiveWindow() {
        let always = inside("mall")
        let visits = [visit(0, m(10), m(60))]
        // Already inside when the campaign starts: triggers at `from`; `until` is exclusive.
        let active = ActiveWindow(fromMs: m(20), untilMs: m(50))
        XCTAssertEqual(ruleIntervals(always, regions: regions, visits: visits, t0: 0, tEnd: m(100), active: active),
                       [Interval(m(20), m(50))])
        XCTAssertEqual(triggerTimes(always, regions: regions, visits: visits, t0: 0, tEnd: m(100), active: active), [m(20)])
        // `not` is complemented within the timeline, then the window applies.
        XCTAssertEqual(ruleIntervals(.not(always), regions: regions, visits: visits, t0: 0, tEnd: m(100), active: active), [])
        XCTAssertEqual(ruleIntervals(.not(always), regions: regions, visits: visits, t0: 0, tEnd: m(100),
                                     active: ActiveWindow(fromMs: m(55), untilMs: nil)), [Interval(m(60), m(100) + 1)])
        // Open-ended sides.
        XCTAssertEqual(triggerTimes(always, regions: regions, visits: visits, t0: 0, tEnd: m(100),
                                    active: ActiveWindow(fromMs: nil, untilMs: m(30))), [m(10)])
        XCTAssertEqual(triggerTimes(always, regions: regions, visits: visits, t0: 0, tEnd: m(100),
                                    active: ActiveWindow(fromMs: m(60), untilMs: nil)), [])
    }
}
