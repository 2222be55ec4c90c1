import XCTest
@testable import GeoCampaignCore

/// The structured reasons of `Arbiter.explainDecisions`: caps and limits name exactly the
/// decisions in their window that used them up.
extension ArbiterTests {
    /// `reasons` (what `evaluate --include-suppressed` writes) gives the decisions and reasons
    /// `explainDecisions` gives, without the words: on random triggers of capped, held-out and
    /// limited offers, with and without the seeds of earlier runs, every status reached.
    func testReasonsWithoutWordsAreThoseOfTheExplanation() {
        let set = CampaignSet(campaigns: [
            camp("held", holdout: 50, [Offer(id: "h", priority: 9), Offer(id: "k", priority: 2, cap: Cap(count: 1, perMs: h(2)))]),
            camp("c", [Offer(id: "a", priority: 5, cap: Cap(count: 2, perMs: h(3))), Offer(id: "b", priority: 1)]),
        ], settings: Settings(perUserLimit: Cap(count: 3, perMs: h(24))))
        let arbiter = Arbiter(campaigns: set)
        var g = SplitMix(seed: 17)
        var statuses = Set<DecisionStatus>()
        for round in 0..<400 {
            let u = "u-\(round % 40)"
            let triggers = (0..<Int(g.next() % 10)).map { _ in trig(Int64(g.next() % 6) * h(1), Int(g.next() % 2), Int(g.next() % 2)) }
            let seeds: [Arbiter.Seed] = round % 2 == 0 ? [] : (0..<Int(g.next() % 4)).map { k in
                .init(time: -h(Int64(4 - k)), delivered: g.next() % 2 == 0, campaignId: ["held", "c"][Int(g.next() % 2)],
                      offerId: ["h", "k", "a", "b"][Int(g.next() % 4)], ruleId: ["r-h", "r-k", "r-a", "r-b"][Int(g.next() % 4)])
            }
            let words = arbiter.explainDecisions(userId: u, triggers: triggers, prior: seeds)
            let reasons = arbiter.reasons(userId: u, triggers: triggers, prior: seeds)
            XCTAssertEqual(reasons.map(\.decision), words.map(\.decision), "round \(round)")
            XCTAssertEqual(reasons.map(\.reason), words.map(\.reason), "round \(round)")
            XCTAssertTrue(reasons.allSatisfy { $0.why.isEmpty })
            XCTAssertTrue(words.allSatisfy { !$0.why.isEmpty })
            statuses.formUnion(words.map(\.decision.status))
        }
        XCTAssertEqual(statuses, Set(DecisionStatus.allCases))
    }

    func testReasonCapNamesTheDecisionsInItsWindowOnly() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "o", cap: Cap(count: 1, perMs: h(1)))])])
        let t = [trig(0, 0, 0), trig(h(2), 0, 0), trig(h(2) + m(30), 0, 0)]
        let e = Arbiter(campaigns: set).explainDecisions(userId: "u", triggers: t)
        XCTAssertEqual(e.map(\.decision.status), [.delivered, .delivered, .capped])
        XCTAssertEqual(e[2].reason, .capped(cap: Cap(count: 1, perMs: h(1)), by: [PriorDecision(trigger: t[1], status: .delivered)]))
        XCTAssertEqual(e[0].reason, .delivered)
    }

    func testReasonLimitNamesTheLastDeliveriesAcrossCampaigns() {
        let set = CampaignSet(campaigns: [camp("a", [Offer(id: "x")]), camp("b", [Offer(id: "y")])],
                              settings: Settings(perUserLimit: Cap(count: 2, perMs: h(24))))
        let t = [trig(0, 0, 0), trig(h(1), 1, 0), trig(h(2), 0, 0), trig(h(25), 0, 0)]
        let e = Arbiter(campaigns: set).explainDecisions(userId: "u", triggers: t)
        XCTAssertEqual(e.map(\.decision.status), [.delivered, .delivered, .limited, .delivered])
        XCTAssertEqual(e[2].reason, .limited(limit: Cap(count: 2, perMs: h(24)), by: [PriorDecision(trigger: t[0], status: .delivered),
                                                                                    PriorDecision(trigger: t[1], status: .delivered)]))
    }

    func testReasonHoldoutAndSameInstantReasons() {
        let set = CampaignSet(campaigns: [
            camp("held", holdout: 50, [Offer(id: "h", priority: 9)]),
            camp("c", [Offer(id: "a", priority: 5), Offer(id: "b", priority: 1)]),
        ])
        let u = user(heldOutOf: "held", true)
        let t = [trig(0, 0, 0), trig(0, 1, 0), trig(0, 1, 1)]
        let e = Arbiter(campaigns: set).explainDecisions(userId: u, triggers: t)
        XCTAssertEqual(e[0].reason, .heldOut(percent: 50, bucket: Holdout.bucket(campaignId: "held", userId: u)))
        XCTAssertEqual(e[2].reason, .lowerPriority(by: PriorDecision(trigger: t[1], status: .delivered)))
    }

    func testReasonJSONForEveryKind() {
        let set = CampaignSet(campaigns: [camp("c", [Offer(id: "o", cap: Cap(count: 1, perMs: h(168)))])])
        let prior = PriorDecision(trigger: trig(1_000, 0, 0), status: .delivered)
        func json(_ r: DecisionReason) -> String {
            var out: [UInt8] = []
            DecisionReasonJSON.append(r, campaigns: set, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        let by = #"[{"campaign":"c","rule":"r-o","offer":"o","time":"1970-01-01T00:00:01Z","status":"delivered"}]"#
        XCTAssertEqual(json(.delivered), "")
        XCTAssertEqual(json(.capped(cap: Cap(count: 1, perMs: h(168)), by: [prior])), #","reason":{"cap":"1 per 1w","by":"# + by + "}")
        XCTAssertEqual(json(.limited(limit: Cap(count: 3), by: [prior])), #","reason":{"limit":"3","by":"# + by + "}")
        XCTAssertEqual(json(.lowerPriority(by: prior)), #","reason":{"by":"# + by + "}")
        XCTAssertEqual(json(.heldOut(percent: 12.5, bucket: 42)), #","reason":{"holdout":"12.5%","bucket":42}"#)
    }
}
