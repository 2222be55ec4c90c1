import XCTest
@testable import GeoCampaignCore

/// The decisions of earlier runs (seeds) that a stateful run's arbiter counts: each one's offer
/// slot, cap and rule are found once for a run of seeds that name the same campaign, offer and
/// rule (`Arbiter.places(of:explain:)`).
extension ArbiterTests {
    func testSeedPlacesAreEachSeedsOwn() {
        let set = CampaignSet(campaigns: [
            camp("a", [Offer(id: "x", cap: Cap(count: 2)), Offer(id: "y")]),
            camp("b", [Offer(id: "x"), Offer(id: "z", cap: Cap(count: 1, perMs: h(24)))]),
        ])
        let arbiter = Arbiter(campaigns: set)
        let campaignIds = ["a", "b", "gone"], offerIds = ["x", "y", "z", "w"], ruleIds = ["r-x", "r-y", "r-z", ""]
        var g = SplitMix(seed: 5)
        func pick(_ xs: [String]) -> String { xs[Int(g.next() % UInt64(xs.count))] }
        var repeats = 0, named = 0
        for _ in 0..<300 {
            var seeds: [Arbiter.Seed] = []
            for k in 0..<Int(g.next() % 12) {
                if k > 0, g.next() % 2 == 0 {
                    var s = seeds[k - 1]
                    s.time += 1
                    seeds.append(s)
                    repeats += 1
                } else {
                    seeds.append(.init(time: Int64(k), delivered: g.next() % 2 == 0, campaignId: pick(campaignIds), offerId: pick(offerIds), ruleId: pick(ruleIds)))
                }
            }
            for explain in [false, true] {
                let places = arbiter.places(of: seeds, explain: explain)
                XCTAssertEqual(places.count, seeds.count)
                for (s, p) in zip(seeds, places) {
                    let slot = arbiter.slot(campaignId: s.campaignId, offerId: s.offerId)
                    XCTAssertEqual(p.slot, slot)
                    XCTAssertEqual(p.capped, slot >= 0 && arbiter.cap(ofSlot: slot) != nil)
                    let rule = explain ? arbiter.priorRule(of: s) : nil
                    XCTAssertEqual(p.rule?.campaign, rule?.campaign)
                    XCTAssertEqual(p.rule?.rule, rule?.rule)
                    if rule != nil { named += 1 }
                }
            }
        }
        XCTAssertGreaterThan(repeats, 300)
        XCTAssertGreaterThan(named, 100)
    }
}
