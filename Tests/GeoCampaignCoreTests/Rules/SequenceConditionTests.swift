import XCTest
@testable import GeoCampaignCore

final class SequenceConditionTests: XCTestCase {
    let regions = [region("gym", tags: ["fitness"]), region("juice-bar", tags: ["food"]), region("mall", tags: ["food"])]

    func sequence(_ steps: [(String, Int64)], within: Int64) -> Condition {
        .sequence(SequenceCondition(steps: steps.map { .init(selector: RegionSelector(regions: [$0.0]), minDwellMs: $0.1) },
                                    withinMs: within))
    }

    func testMatches() {
        let gymJuice = sequence([("gym", m(30)), ("juice-bar", 0)], within: h(2))
        let cases: [(String, Condition, [Visit], [Interval])] = [
            ("gym then juice", gymJuice, [visit(0, m(0), m(50)), visit(1, m(70), m(80))], [Interval(m(70), m(150))]),
            ("gym too short", gymJuice, [visit(0, m(0), m(29)), visit(1, m(70), m(80))], []),
            ("gym exactly min_dwell", gymJuice, [visit(0, m(0), m(30)), visit(1, m(70), m(80))], [Interval(m(70), m(150))]),
            ("juice before gym: order by enter", gymJuice, [visit(1, m(0), m(10)), visit(0, m(5), m(50))], []),
            ("juice entered while at gym still counts (enter later)", gymJuice,
             [visit(0, m(0), m(50)), visit(1, m(10), m(20))], [Interval(m(30), m(150))]),
            ("same enter time is not strictly increasing", gymJuice, [visit(0, m(0), m(40)), visit(1, m(0), m(10))], []),
            ("qmax - q1 == within: empty", gymJuice, [visit(0, m(0), m(40)), visit(1, m(150), m(160))], []),
            ("qmax - q1 == within - 1 ms", gymJuice, [visit(0, m(0), m(40)), visit(1, m(150) - 1, m(160))],
             [Interval(m(150) - 1, m(150))]),
            ("union over matches", gymJuice,
             [visit(0, m(0), m(40)), visit(1, m(50), m(55)), visit(0, m(100), m(140)), visit(1, m(200), m(210))],
             [Interval(m(50), m(150)), Interval(m(200), m(250))]),
            ("a later first step restarts the window", gymJuice,
             [visit(0, m(0), m(40)), visit(0, m(200), m(240)), visit(1, m(250), m(255))], [Interval(m(250), m(350))]),
        ]
        for (name, cond, visits, expected) in cases {
            XCTAssertEqual(ruleIntervals(cond, regions: regions, visits: visits, t0: 0, tEnd: m(1000)), expected, name)
        }
    }

    func testOneVisitCannotServeTwoSteps() {
        let twice = sequence([("gym", 0), ("gym", 0)], within: h(2))
        XCTAssertEqual(ruleIntervals(twice, regions: regions, visits: [visit(0, m(0), m(10))], t0: 0, tEnd: m(1000)), [])
        XCTAssertEqual(ruleIntervals(twice, regions: regions, visits: [visit(0, m(0), m(10)), visit(0, m(20), m(30))],
                                     t0: 0, tEnd: m(1000)), [Interval(m(20), m(120))])
    }

    func testEvidenceIsAMatchCoveringTheTrigger() {
        let c = campaign(regions: regions, conditions: [sequence([("gym", m(30)), ("juice-bar", 0)], within: h(2))])
        let visits = [visit(1, m(0), m(5)), visit(0, m(10), m(50)), visit(1, m(60), m(65))]
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: m(1000))
        XCTAssertEqual(triggers.map(\.time), [m(60)])
        XCTAssertEqual(triggers.first?.evidence, [1, 2])
    }

    /// The efficient evaluation equals the definition: every match enumerated.
    func testAgainstExhaustiveEnumeration() {
        var rng = SplitMix(seed: 7)
        for round in 0..<400 {
            let stepCount = 2 + Int(rng.next() % 2)
            let steps: [(String, Int64)] = (0..<stepCount).map { _ in
                (["gym", "juice-bar", "mall"][Int(rng.next() % 3)], Int64(rng.next() % 3) * 5)
            }
            let within = Int64(rng.next() % 60) + 1
            let visits: [Visit] = (0..<Int(rng.next() % 7)).map { _ in
                let enter = Int64(rng.next() % 100)
                return visit(Int32(rng.next() % 3), enter, enter + Int64(rng.next() % 20))
            }
            var raw: [Interval] = []
            func extend(_ chain: [Int]) {
                if chain.count == stepCount {
                    let qs = chain.enumerated().map { visits[$0.element].enter + steps[$0.offset].1 }
                    raw.append(Interval(qs.max() ?? 0, qs[0] + within))
                    return
                }
                let j = chain.count
                for (i, v) in visits.enumerated() where !chain.contains(i) && regions[Int(v.region)].id == steps[j].0
                    && v.duration >= steps[j].1 && (chain.last.map { visits[$0].enter < v.enter } ?? true) {
                    extend(chain + [i])
                }
            }
            extend([])
            let expected = IntervalSet(raw).clipped(to: Interval(0, 1001)).intervals
            let cond = sequence(steps, within: within)
            XCTAssertEqual(ruleIntervals(cond, regions: regions, visits: visits, t0: 0, tEnd: 1000), expected, "round \(round)")
            // Evidence at each trigger is itself a match covering it.
            let c = campaign(regions: regions, conditions: [cond])
            for t in RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: 1000) {
                XCTAssertEqual(t.evidence.count, stepCount, "round \(round)")
            }
        }
    }
}
