import XCTest
@testable import GeoCampaignCore

final class RuleExplanationTests: XCTestCase {
    let regions = [region("dealer-1", tags: ["car-dealer"]), region("dealer-7", tags: ["car-dealer"]),
                   region("dealer-4", tags: ["car-dealer"]), region("gym"), region("juice-bar"), region("mall")]

    func explain(_ condition: Condition, _ visits: [Visit], t0: Int64 = 0, tEnd: Int64 = h(200),
                 active: ActiveWindow? = nil) throws -> RuleExplanation {
        let c = campaign(regions: regions, conditions: [condition], active: active)
        return try XCTUnwrap(RuleEvaluator(campaign: c, campaignIndex: 0).explain(rule: 0, visits: visits, t0: t0, tEnd: tEnd))
    }

    func testVisitedNearestMiss() throws {
        let cond = Condition.visited(VisitedCondition(selector: RegionSelector(tags: ["car-dealer"]), atLeast: 3, distinct: true,
                                                      withinMs: h(72), minDwellMs: m(5)))
        let e = try explain(cond, [visit(0, h(1), h(2)), visit(1, h(10), h(11)), visit(2, h(100), h(101)), visit(2, h(120), h(120) + m(4))])
        XCTAssertEqual(e.held, [])
        XCTAssertEqual(e.condition.achieved, 2)
        XCTAssertEqual(e.condition.required, 3)
        XCTAssertEqual(e.condition.regions, ["dealer-1", "dealer-7"])
        XCTAssertEqual(e.description,
                       "never held: 2 of 3 distinct car-dealer regions within 72h: dealer-1, dealer-7 (stays of at least 5m count)")
        let tooShort = try explain(cond, [visit(0, h(1), h(1) + m(3))])
        XCTAssertEqual(tooShort.condition.achieved, 0)
        XCTAssertEqual(tooShort.condition.bestMs, m(3))
        XCTAssertEqual(tooShort.description, "never held: no stay at car-dealer regions lasted 5m; the longest was 3m at dealer-1")
        XCTAssertTrue(try explain(cond, []).description.hasPrefix("never held: never visited car-dealer regions"))
    }

    func testDwelledLongestStay() throws {
        let cond = Condition.dwelled(DwelledCondition(selector: RegionSelector(regions: ["gym"]), overMs: m(30)))
        let e = try explain(cond, [visit(3, h(1), h(1) + m(12)), visit(3, h(2), h(2) + m(30))])
        XCTAssertEqual(e.condition.bestMs, m(30))
        XCTAssertEqual(e.condition.thresholdMs, m(30))
        XCTAssertEqual(e.description, "never held: longest stay at gym was 30m, needs more than 30m")
        let held = try explain(cond, [visit(3, h(1), h(2))])
        XCTAssertEqual(held.held, [Interval(h(1) + m(30), h(2))])
        XCTAssertEqual(held.triggers, [h(1) + m(30)])
        XCTAssertEqual(held.description, "held once: 1970-01-01T01:30:00Z to 1970-01-01T02:00:00Z")
    }

    func testSequenceSteps() throws {
        let cond = Condition.sequence(SequenceCondition(steps: [.init(selector: RegionSelector(regions: ["gym"]), minDwellMs: m(30)),
                                                                .init(selector: RegionSelector(regions: ["juice-bar"])),
                                                                .init(selector: RegionSelector(regions: ["mall"]))], withinMs: h(2)))
        let one = try explain(cond, [visit(4, h(0), h(1)), visit(3, h(2), h(3))])
        XCTAssertEqual(one.condition.achieved, 1)
        XCTAssertEqual(one.description, "never held: 1 of 3 steps in order: gym; no visit to juice-bar after that")
        let slow = try explain(cond, [visit(3, h(0), h(1)), visit(4, h(2), h(3)), visit(5, h(4), h(5))])
        XCTAssertEqual(slow.condition.achieved, 3)
        XCTAssertEqual(slow.condition.bestMs, h(4) - m(30))
        XCTAssertEqual(slow.description, "never held: all 3 steps happened in order (gym then juice-bar then mall), but the quickest took 3h30m, needs less than 2h")
        let short = try explain(cond, [visit(3, h(0), h(0) + m(20))])
        XCTAssertEqual(short.description, "never held: 0 of 3 steps in order: no stay at gym lasted 30m (longest 20m)")
    }

    func testAllReportsTheFailingParts() throws {
        let inGym = Condition.inside(InsideCondition(selector: RegionSelector(regions: ["gym"])))
        let inMall = Condition.inside(InsideCondition(selector: RegionSelector(regions: ["mall"])))
        let e = try explain(.all([inGym, inMall]), [visit(3, h(1), h(2))])
        XCTAssertEqual(e.condition.parts.map(\.everHeld), [true, false])
        XCTAssertEqual(e.description, "never held: not every part held: never inside mall")
        let apart = try explain(.all([inGym, inMall]), [visit(3, h(1), h(2)), visit(5, h(3), h(4))])
        XCTAssertEqual(apart.condition.achieved, 1)
        XCTAssertTrue(apart.description.hasPrefix("never held: each part held at some time, but at most 1 of 2 at once: "), apart.description)
        let never = try explain(.not(.all([])), [])
        XCTAssertEqual(never.description, "never held: all of () held for the whole history")
    }

    func testOutsideTheActiveWindow() throws {
        let inGym = Condition.inside(InsideCondition(selector: RegionSelector(regions: ["gym"])))
        let e = try explain(inGym, [visit(3, h(1), h(2))], active: ActiveWindow(fromMs: h(10), untilMs: nil))
        XCTAssertTrue(e.onlyOutsideActiveWindow)
        XCTAssertEqual(e.condition.held, [Interval(h(1), h(2))])
        XCTAssertEqual(e.description, "never held while the campaign was active (from 1970-01-01T10:00:00Z); "
                       + "the condition itself held from 1970-01-01T01:00:00Z to 1970-01-01T02:00:00Z")
    }

    func testDurationText() {
        let cases: [(Int64, String)] = [(0, "0s"), (m(5), "5m"), (h(72), "72h"), (h(1) + m(30), "1h30m"), (45_000, "45s"),
                                        (m(2) + 30_500, "2m30.5s"), (1, "0.001s"), (h(1) + 5_000, "1h5s")]
        for (ms, text) in cases { XCTAssertEqual(ExplainText.duration(ms), text) }
    }
}
