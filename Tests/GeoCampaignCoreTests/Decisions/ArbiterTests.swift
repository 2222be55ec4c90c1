import XCTest
@testable import GeoCampaignCore

final class ArbiterTests: XCTestCase {
    /// A campaign with one rule per offer, rule "r-<offer>" naming offer "<offer>".
    func camp(_ id: String, holdout: Double = 0, _ offers: [Offer]) -> Campaign {
        Campaign(id: id, holdoutPercent: holdout, regions: [region("x")],
                 rules: offers.map { Rule(id: "r-\($0.id)", condition: .all([]), offer: $0.id) }, offers: offers)
    }

    func trig(_ time: Int64, _ campaign: Int, _ rule: Int) -> Trigger {
        Trigger(time: time, campaign: campaign, rule: rule, evidence: [])
    }

    func statuses(_ set: CampaignSet, _ triggers: [Trigger], user: String = "u-1") -> [DecisionStatus] {
        Arbiter(campaigns: set).decide(userId: user, triggers: triggers).map(\.status)
    }

    /// A user id whose bucket in campaign `c` is below (held out) or at least (not held out) 5000.
    func user(heldOutOf c: String, _ heldOut: Bool) -> String {
        (0..<1000).map { "u-\($0)" }.first { (Holdout.bucket(campaignId: c, userId: $0) < 5000) == heldOut } ?? ""
    }

    func testCapsWithPeriodCountTheHalfOpenWindow() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "o", cap: Cap(count: 1, perMs: h(1)))])])
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(m(30), 0, 0), trig(h(1), 0, 0), trig(h(1) + m(59), 0, 0)]),
                       [.delivered, .capped, .delivered, .capped])
        let two = CampaignSet(campaigns: [camp("c", [Offer(id: "o", cap: Cap(count: 2, perMs: h(1)))])])
        XCTAssertEqual(statuses(two, [trig(0, 0, 0), trig(m(10), 0, 0), trig(m(20), 0, 0), trig(h(1) + 1, 0, 0)]),
                       [.delivered, .delivered, .capped, .delivered])
    }

    func testLifetimeCap() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "o", cap: Cap(count: 1))])])
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(h(1000), 0, 0)]), [.delivered, .capped])
    }

    func testHeldOutCountsForTheCapOnly() {
        let set = CampaignSet(campaigns: [
            camp("held", holdout: 50, [Offer(id: "o", priority: 5, cap: Cap(count: 1, perMs: h(1)))]),
            camp("free", [Offer(id: "p", priority: 1)]),
        ], settings: Settings(perUserLimit: Cap(count: 1, perMs: h(24))))
        let u = user(heldOutOf: "held", true)
        XCTAssertFalse(u.isEmpty)
        // held_out, then capped by the held-out decision; the simultaneous lower offer is still
        // delivered (held out is not a delivery) and the per-user limit ignores held-out decisions.
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(0, 1, 0), trig(m(30), 0, 0)], user: u),
                       [.heldOut, .delivered, .capped])
        let notHeld = user(heldOutOf: "held", false)
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(0, 1, 0)], user: notHeld), [.delivered, .lowerPriority])
    }

    func testLowerPriorityAndOrderAtTheSameInstant() {
        let set = CampaignSet(campaigns: [
            camp("b-camp", [Offer(id: "low", priority: 1), Offer(id: "high", priority: 9)]),
            camp("a-camp", [Offer(id: "mid", priority: 5), Offer(id: "mid2", priority: 5)]),
            camp("Z-camp", [Offer(id: "mid", priority: 5)]),
        ])
        let input = [trig(10, 0, 0), trig(10, 0, 1), trig(10, 1, 1), trig(10, 1, 0), trig(10, 2, 0), trig(5, 0, 0)]
        let decisions = Arbiter(campaigns: set).decide(userId: "u", triggers: input)
        // Time first; then priority 9, then 5 by campaign id bytes ("Z-camp" < "a-camp"), then rule id; then 1.
        XCTAssertEqual(decisions.map(\.trigger), [trig(5, 0, 0), trig(10, 0, 1), trig(10, 2, 0), trig(10, 1, 0), trig(10, 1, 1), trig(10, 0, 0)])
        XCTAssertEqual(decisions.map(\.status), [.delivered, .delivered, .lowerPriority, .lowerPriority, .lowerPriority, .lowerPriority])
    }

    func testCappedHigherOfferLetsTheLowerOneDeliver() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "hi", priority: 9, cap: Cap(count: 1)), Offer(id: "lo")])])
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(h(1), 0, 0), trig(h(1), 0, 1)]), [.delivered, .capped, .delivered])
    }

    func testPerUserLimit() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "a"), Offer(id: "b"), Offer(id: "c")])],
                              settings: Settings(perUserLimit: Cap(count: 2, perMs: h(24))))
        let input = [trig(0, 0, 0), trig(h(1), 0, 1), trig(h(2), 0, 2), trig(h(24) - 1, 0, 0), trig(h(24), 0, 1), trig(h(24) + 1, 0, 2)]
        // (t - 24h, t]: the delivery at 0 leaves the window exactly at 24h.
        XCTAssertEqual(statuses(set, input), [.delivered, .delivered, .limited, .limited, .delivered, .limited])
        // Same instant as a delivery: lower_priority is checked before limited.
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(h(1), 0, 1), trig(h(1), 0, 2)]), [.delivered, .delivered, .lowerPriority])
    }

    func testLimitedDoesNotCountTowardTheCap() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "a", priority: 1), Offer(id: "b", cap: Cap(count: 1, perMs: h(48)))])],
                              settings: Settings(perUserLimit: Cap(count: 1, perMs: h(24))))
        XCTAssertEqual(statuses(set, [trig(0, 0, 0), trig(h(1), 0, 1), trig(h(25), 0, 1)]), [.delivered, .limited, .delivered])
    }

    func testSuppressedRuleDoesNotRetry() {
        // Rule 0 inside "mall", rule 1 inside "gym", both offering "o" capped 1 per hour.
        let regions = [region("mall"), region("gym")]
        let c = Campaign(id: "c", regions: regions, rules: [
            Rule(id: "mall", condition: .inside(InsideCondition(selector: RegionSelector(regions: ["mall"]))), offer: "o"),
            Rule(id: "gym", condition: .inside(InsideCondition(selector: RegionSelector(regions: ["gym"]))), offer: "o"),
        ], offers: [Offer(id: "o", cap: Cap(count: 1, perMs: h(1)))])
        let visits = [visit(0, m(0), m(5)), visit(1, m(10), h(5)), visit(1, h(6), h(7))]
        let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: 0, tEnd: h(8))
        let decisions = Arbiter(campaigns: CampaignSet(campaigns: [c])).decide(userId: "u", triggers: triggers)
        // Still inside the gym when the cap expires: no new trigger until the user leaves and comes back.
        XCTAssertEqual(decisions.map(\.trigger.time), [0, m(10), h(6)])
        XCTAssertEqual(decisions.map(\.status), [.delivered, .capped, .delivered])
    }

    func testEveryStatusIsReachable() {
        let set = CampaignSet(campaigns: [
            camp("held", holdout: 50, [Offer(id: "h", priority: 9)]),
            camp("c", [Offer(id: "a", priority: 5, cap: Cap(count: 1)), Offer(id: "b", priority: 1)]),
        ], settings: Settings(perUserLimit: Cap(count: 1, perMs: nil)))
        let u = user(heldOutOf: "held", true)
        let got = statuses(set, [trig(0, 0, 0), trig(0, 1, 0), trig(0, 1, 1), trig(5, 1, 0), trig(6, 1, 1)], user: u)
        XCTAssertEqual(got, [.heldOut, .delivered, .lowerPriority, .capped, .limited])
        XCTAssertEqual(Set(got), Set(DecisionStatus.allCases))
    }
}

extension ArbiterTests {
    func testReasonsMatchTheStatuses() {
        let set = CampaignSet(campaigns: [
            camp("held", holdout: 50, [Offer(id: "h", priority: 9)]),
            camp("c", [Offer(id: "a", priority: 5, cap: Cap(count: 1)), Offer(id: "b", priority: 1)]),
        ], settings: Settings(perUserLimit: Cap(count: 1, perMs: h(24))))
        let u = user(heldOutOf: "held", true)
        let triggers = [trig(0, 0, 0), trig(0, 1, 0), trig(0, 1, 1), trig(5, 1, 0), trig(6, 1, 1)]
        let arbiter = Arbiter(campaigns: set)
        let explained = arbiter.explainDecisions(userId: u, triggers: triggers)
        XCTAssertEqual(explained.map(\.decision), arbiter.decide(userId: u, triggers: triggers))
        let bucket = Holdout.bucket(campaignId: "held", userId: u)
        XCTAssertEqual(explained.map(\.why), [
            "user is in the 50% holdout of held (bucket \(bucket) of 10000)",
            "delivered: no cap, holdout, earlier delivery at this instant or limit stood in the way",
            "c/a was delivered at the same instant",
            "cap of a reached: 1 delivered or held out in the user's lifetime (cap 1)",
            "per-user limit reached: 1 delivery in the last 24h (limit 1 per 24h)",
        ])
    }
}
