import XCTest
@testable import GeoCampaignCore

/// The structured reasons of `Arbiter.explainDecisions`: caps and limits name exactly the
/// decisions in their window that used them up.
extension ArbiterTests {
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
