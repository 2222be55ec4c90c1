import XCTest
@testable import GeoCampaignCore

/// Exposure, arms, measurability and conversion (measurement.md 2) and reach (4), on outcomes
/// written by hand.
final class MeasurementPlanTests: XCTestCase {
    static let hour: Int64 = 3_600_000, minute: Int64 = 60_000
    static let t: Int64 = 1_772_000_000_000

    /// One campaign: a goal region `store` (tag own), a `rival`; rules a -> o1, b -> o1, c -> o2;
    /// goal: own within 1h, min_dwell 10m; holdout 50%.
    static func campaigns(goal: Bool = true) -> CampaignSet {
        let inside = Condition.inside(InsideCondition(selector: RegionSelector(regions: ["rival"])))
        let c = Campaign(id: "shop", holdoutPercent: 50,
                         regions: [Region(id: "store", tags: ["own"], shape: .circle(center: Coordinate(lat: 37.7, lon: -121.75), radiusM: 150)),
                                   Region(id: "rival", tags: ["competitor"], shape: .circle(center: Coordinate(lat: 37.71, lon: -121.75), radiusM: 150))],
                         rules: [Rule(id: "a", condition: inside, offer: "o1"), Rule(id: "b", condition: inside, offer: "o1"),
                                 Rule(id: "c", condition: inside, offer: "o2")],
                         offers: [Offer(id: "o1"), Offer(id: "o2")],
                         goal: goal ? Goal(selector: RegionSelector(tags: ["own"]), withinMs: hour, minDwellMs: 10 * minute) : nil)
        return CampaignSet(campaigns: [c])
    }

    /// User ids in and out of the holdout of `shop` at 50%, found with the holdout hash itself.
    static let heldOutIds = (0..<200).map { "u\($0)" }.filter { Holdout.isHeldOut(campaignId: "shop", userId: $0, percent: 50) }
    static let treatedIds = (0..<200).map { "u\($0)" }.filter { !Holdout.isHeldOut(campaignId: "shop", userId: $0, percent: 50) }

    static func visit(_ region: Int32, _ enter: Int64, _ minutes: Int64, open: Bool = false) -> Visit {
        let end = enter + minutes * minute
        return Visit(region: region, enter: enter, exit: open ? nil : end, lastSeen: end, reason: open ? nil : .left)
    }

    static func decision(_ time: Int64, rule: Int, _ status: DecisionStatus) -> Decision {
        Decision(trigger: Trigger(time: time, campaign: 0, rule: rule, evidence: []), status: status)
    }

    static func outcome(_ user: String, visits: [Visit], decisions: [Decision], tEnd: Int64 = t + 10 * hour) -> UserOutcome {
        UserOutcome(userId: user, fixCount: 10, t0: t - hour, tEnd: tEnd, visits: [visits],
                    triggers: decisions.map(\.trigger), decisions: decisions)
    }

    private func measure(_ outcomes: [UserOutcome], campaigns: CampaignSet = campaigns()) -> MeasurementResult {
        let plan = MeasurementPlan(campaigns: campaigns)
        var tally = plan.emptyTally()
        for o in outcomes { plan.add(o, to: &tally) }
        return MeasurementResult(tally: tally, campaigns: campaigns, lines: 99)
    }

    private func converted(_ visits: [Visit], exposure: Int64 = t) -> Bool {
        let user = Self.treatedIds[0]
        let m = measure([Self.outcome(user, visits: visits, decisions: [Self.decision(exposure, rule: 0, .delivered)])])
        return m.campaigns[0].lift?.lift.treated.converted == 1
    }

    func testAConversionIsAGoalVisitBeginningAfterTheExposureWithinTheWindow() {
        let t = Self.t, h = Self.hour, m = Self.minute
        let table: [(String, [Visit], Bool)] = [
            ("a 15 min visit 10 min after", [Self.visit(0, t + 10 * m, 15)], true),
            ("entering at the exposure itself is not after it", [Self.visit(0, t, 60)], false),
            ("entering exactly at x + within counts", [Self.visit(0, t + h, 15)], true),
            ("one ms later does not", [Self.visit(0, t + h + 1, 15)], false),
            ("a visit of 9 min is shorter than min_dwell", [Self.visit(0, t + 5 * m, 9)], false),
            ("exactly min_dwell counts", [Self.visit(0, t + 5 * m, 10)], true),
            ("an open visit counts with its duration so far", [Self.visit(0, t + 5 * m, 12, open: true)], true),
            ("a visit begun before the exposure does not count, however long", [Self.visit(0, t - m, 120)], false),
            ("a visit to a region not of the goal", [Self.visit(1, t + 5 * m, 30)], false),
            ("the second of two visits", [Self.visit(0, t + 5 * m, 3), Self.visit(0, t + 30 * m, 20)], true),
        ]
        for (what, visits, want) in table {
            XCTAssertEqual(converted(visits), want, what)
        }
    }

    func testTheExposureIsTheFirstDecisionOfAnyStatusAndTheArmIsTheHoldoutHash() throws {
        let t = Self.t, m = Self.minute
        // Treated user: the first decision is capped, yet the user is treated (intent to treat);
        // the goal visit, 50 min after the first decision, converts (10 min after the second).
        let treated = Self.outcome(Self.treatedIds[0], visits: [Self.visit(0, t + 50 * m, 20)],
                                   decisions: [Self.decision(t, rule: 0, .capped), Self.decision(t + 40 * m, rule: 2, .delivered)])
        // Held-out user: all decisions held_out; converts.
        let heldOut = Self.outcome(Self.heldOutIds[0], visits: [Self.visit(0, t + 20 * m, 30)],
                                   decisions: [Self.decision(t, rule: 1, .heldOut)])
        // Treated, does not convert: its goal visit is 61 min after its first decision.
        let late = Self.outcome(Self.treatedIds[1], visits: [Self.visit(0, t + 61 * m, 30)],
                                decisions: [Self.decision(t, rule: 0, .delivered), Self.decision(t + 30 * m, rule: 0, .delivered)])
        let lift = try XCTUnwrap(measure([treated, heldOut, late]).campaigns[0].lift)
        XCTAssertEqual(lift.lift.treated, ArmCount(n: 2, converted: 1))
        XCTAssertEqual(lift.lift.holdout, ArmCount(n: 1, converted: 1))
        XCTAssertEqual(lift.pending, 0)
        XCTAssertEqual(lift.goalRegions, ["store"])
    }

    func testUsersWhoseWindowEndsAfterTheLatestFixArePending() throws {
        let t = Self.t, h = Self.hour
        // T_data is the latest fix of all users: t + 3h (the second user's).
        let early = Self.outcome(Self.treatedIds[0], visits: [], decisions: [Self.decision(t + 2 * h, rule: 0, .delivered)], tEnd: t + 2 * h)
        let edge = Self.outcome(Self.treatedIds[1], visits: [], decisions: [Self.decision(t + 2 * h + 1, rule: 0, .delivered)], tEnd: t + 3 * h)
        let lift = try XCTUnwrap(measure([early, edge]).campaigns[0].lift)
        XCTAssertEqual(lift.lift.treated.n, 1, "x + within = T_data is measurable")
        XCTAssertEqual(lift.pending, 1, "x + within = T_data + 1 ms is pending")
    }

    func testUsersWithoutADecisionAreNotExposed() throws {
        let quiet = Self.outcome(Self.treatedIds[0], visits: [Self.visit(0, Self.t, 30)], decisions: [])
        let m = measure([quiet])
        XCTAssertEqual(m.campaigns[0].lift?.lift.treated.n, 0)
        XCTAssertEqual(m.campaigns[0].lift?.lift.holdout.n, 0)
        XCTAssertEqual(m.campaigns[0].users, 1, "a visitor all the same")
        XCTAssertNil(measure([quiet], campaigns: Self.campaigns(goal: false)).campaigns[0].lift, "no goal, no lift")
    }

    func testReachCountsDistinctUsersAndEveryTriggerAndDecision() {
        let t = Self.t, m = Self.minute
        let a = Self.outcome(Self.treatedIds[0], visits: [Self.visit(1, t, 5), Self.visit(1, t + 60 * m, 5)],
                             decisions: [Self.decision(t, rule: 0, .delivered), Self.decision(t + 60 * m, rule: 0, .capped),
                                         Self.decision(t + 61 * m, rule: 1, .delivered), Self.decision(t + 62 * m, rule: 2, .limited)])
        let b = Self.outcome(Self.heldOutIds[0], visits: [Self.visit(1, t, 5)], decisions: [Self.decision(t, rule: 0, .heldOut)])
        let c = Self.outcome(Self.treatedIds[1], visits: [], decisions: [])
        let r = measure([a, b, c])
        XCTAssertEqual(r.users, 3)
        XCTAssertEqual(r.fixes, 30)
        XCTAssertEqual(r.lines, 99)
        let cm = r.campaigns[0]
        XCTAssertEqual(cm.users, 2, "c has no visit")
        XCTAssertEqual(cm.regionVisits, [0, 3])
        XCTAssertEqual(cm.rules, [.init(rule: "a", triggered: 2, triggers: 3), .init(rule: "b", triggered: 1, triggers: 1),
                                  .init(rule: "c", triggered: 1, triggers: 1)])
        XCTAssertEqual(cm.offers[0].offer, "o1")
        XCTAssertEqual(cm.offers[0].reached, 1, "a's two deliveries of o1 (rules a and b) reach one user")
        XCTAssertEqual(cm.offers[0].decisions, [.delivered: 2, .capped: 1, .heldOut: 1, .lowerPriority: 0, .limited: 0])
        XCTAssertEqual(cm.offers[1].reached, 0)
        XCTAssertEqual(cm.offers[1].decisions[.limited], 1)
        XCTAssertEqual(r.period?.from, t - Self.hour)
        XCTAssertEqual(r.period?.to, t + 10 * Self.hour)
        let perQuarter = cm.decisionsByQuarterHour.values.reduce(0) { $0 + $1.values.reduce(0, +) }
        XCTAssertEqual(perQuarter, 5, "every decision in a quarter hour")
    }

    func testMergedTalliesEqualOneTally() {
        let t = Self.t, m = Self.minute
        let outcomes = (0..<6).map { i in
            Self.outcome(i % 2 == 0 ? Self.treatedIds[i] : Self.heldOutIds[i], visits: [Self.visit(0, t + Int64(i) * 7 * m, 12)],
                         decisions: [Self.decision(t, rule: i % 3, i % 2 == 0 ? .delivered : .heldOut)], tEnd: t + Int64(i) * Self.hour)
        }
        let plan = MeasurementPlan(campaigns: Self.campaigns())
        var whole = plan.emptyTally(), left = plan.emptyTally(), right = plan.emptyTally()
        for (i, o) in outcomes.enumerated() {
            plan.add(o, to: &whole)
            if i < 2 { plan.add(o, to: &left) } else { plan.add(o, to: &right) }
        }
        left.merge(right)
        let a = ReportJSON.render(MeasurementResult(tally: whole, campaigns: Self.campaigns(), lines: 1))
        let b = ReportJSON.render(MeasurementResult(tally: left, campaigns: Self.campaigns(), lines: 1))
        XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
        XCTAssertEqual(left.campaigns[0].decisionsByQuarterHour, whole.campaigns[0].decisionsByQuarterHour)
    }

    func testCampaignsComeInIdOrder() {
        var set = Self.campaigns()
        var other = set.campaigns[0]
        other.id = "alpha"
        set.campaigns.append(other)
        XCTAssertEqual(measure([], campaigns: set).campaigns.map(\.campaign), ["alpha", "shop"])
        XCTAssertNil(measure([], campaigns: set).period, "no user, no period")
    }
}
