import Foundation
import XCTest
@testable import GeoCampaignCore

/// Rules and arbitration against spec/examples/conformance-1: visits from its events, campaigns
/// built by hand from its YAML, decisions compared with its decisions.jsonl.
final class ConformanceRulesTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Rules/conformance-1")

    static let la = "America/Los_Angeles"

    static func sel(_ regions: [String] = [], tags: [String] = []) -> RegionSelector { RegionSelector(regions: regions, tags: tags) }

    static var dealers: [Region] {
        (1...8).map { i in region("dealer-\(i)", tags: ["car-dealer"] + (i == 2 ? ["luxury"] : i == 5 ? ["used-cars"] : [])) }
            + [region("auto-mall-north", tags: ["car-dealer"]), region("auto-mall-south", tags: ["car-dealer", "used-cars"])]
    }

    /// The five campaigns of the example, in file name order.
    static var campaignSet: CampaignSet {
        let insurance = Campaign(id: "auto-insurance", regions: dealers, rules: [
            Rule(id: "dealer-dwell", condition: .dwelled(DwelledCondition(selector: sel(tags: ["car-dealer"]), overMs: m(5))), offer: "quote"),
        ], offers: [Offer(id: "quote", priority: 4, cap: Cap(count: 2, perMs: h(24)), message: "Get a quote before you sign")])
        let cars = Campaign(id: "car-shoppers",
                            active: ActiveWindow(fromMs: utc(2026, 3, 3, 8), untilMs: utc(2026, 3, 13, 7), timezone: la),
                            holdoutPercent: 20, regions: dealers, rules: [
            Rule(id: "three-dealers", condition: .visited(VisitedCondition(selector: sel(tags: ["car-dealer"]), atLeast: 3, distinct: true,
                                                                          withinMs: h(72), minDwellMs: m(5))), offer: "test-drive"),
            Rule(id: "dealer-regular", condition: .visited(VisitedCondition(selector: sel(["dealer-2"]), atLeast: 2,
                                                                           withinMs: h(120), minDwellMs: m(10))), offer: "service-plan"),
        ], offers: [Offer(id: "test-drive", priority: 10, cap: Cap(count: 1, perMs: h(168))),
                    Offer(id: "service-plan", priority: 3, cap: Cap(count: 1))])
        let fitnessRegions = [region("gym", tags: ["fitness"]), region("juice-bar", tags: ["food"]), region("mall", tags: ["shopping"])]
        let fitness = Campaign(id: "fitness-fuel", regions: fitnessRegions, rules: [
            Rule(id: "post-workout", condition: .sequence(SequenceCondition(steps: [.init(selector: sel(["gym"]), minDwellMs: m(30)),
                                                                                    .init(selector: sel(["juice-bar"]))], withinMs: h(2))),
                 offer: "smoothie"),
            Rule(id: "mall-browse", condition: .all([.inside(InsideCondition(selector: sel(["mall"]))),
                                                     .not(.inside(InsideCondition(selector: sel(["juice-bar"]))))]), offer: "mall-coupon"),
            Rule(id: "early-bird", condition: .all([.inside(InsideCondition(selector: sel(tags: ["fitness"]))),
                                                    .during(DuringCondition(startMinute: 300, endMinute: 420, timezone: la))]),
                 offer: "early-bird"),
            Rule(id: "fan", condition: .any([
                .dwelled(DwelledCondition(selector: sel(["juice-bar"]), overMs: m(20))),
                .visited(VisitedCondition(selector: sel(["gym"]), atLeast: 3, withinMs: m(90), minDwellMs: m(20))),
                .visited(VisitedCondition(selector: sel(["gym"]), atLeast: 3, withinMs: h(168), minDwellMs: m(20))),
            ]), offer: "fan-club"),
            Rule(id: "weekend-juice", condition: .all([.inside(InsideCondition(selector: sel(["juice-bar"]))),
                                                       .during(DuringCondition(days: [6, 7]))]), offer: "weekend-juice"),
        ], offers: [Offer(id: "smoothie", priority: 8, cap: Cap(count: 1, perMs: h(24))),
                    Offer(id: "mall-coupon", priority: 1, cap: Cap(count: 3, perMs: h(168))),
                    Offer(id: "early-bird", priority: 2),
                    Offer(id: "fan-club", priority: 4, cap: Cap(count: 1)),
                    Offer(id: "weekend-juice", priority: 3, cap: Cap(count: 1, perMs: h(24)))])
        let lorrRegions = [region("lorrenzillos", tags: ["own-restaurant"]), region("pizza-co", tags: ["competitor", "pizza"]),
                           region("plaza", tags: ["shopping"]), region("burger-barn", tags: ["competitor"]),
                           region("noodle-bar", tags: ["competitor"]), region("taco-town", tags: ["competitor", "mexican"])]
        let lorr = Campaign(id: "lorrenzillos", active: ActiveWindow(fromMs: utc(2026, 3, 1, 8), untilMs: nil, timezone: la),
                            holdoutPercent: 10, regions: lorrRegions, rules: [
            Rule(id: "competitor-lunch", condition: .all([.dwelled(DwelledCondition(selector: sel(tags: ["competitor"]), overMs: m(15))),
                                                          .during(DuringCondition(days: [1, 2, 3, 4, 5], startMinute: 690, endMinute: 840, timezone: la))]),
                 offer: "lunch-coupon"),
            Rule(id: "win-back", condition: .all([.inside(InsideCondition(selector: sel(tags: ["competitor"]))),
                                                  .not(.visited(VisitedCondition(selector: sel(["lorrenzillos"]), withinMs: h(168), minDwellMs: m(10))))]),
                 offer: "we-miss-you"),
            Rule(id: "night-owl", condition: .all([.inside(InsideCondition(selector: sel(["lorrenzillos"]))),
                                                   .during(DuringCondition(days: [3, 4, 5], startMinute: 1320, endMinute: 120, timezone: la))]),
                 offer: "night-owl"),
            Rule(id: "regular", condition: .visited(VisitedCondition(selector: sel(tags: ["own-restaurant"]), atLeast: 2, withinMs: h(168), minDwellMs: m(30))),
                 offer: "loyalty"),
            Rule(id: "thanks", condition: .dwelled(DwelledCondition(selector: sel(["lorrenzillos"]), overMs: m(30))), offer: "thank-you"),
        ], offers: [Offer(id: "lunch-coupon", priority: 5, cap: Cap(count: 2, perMs: h(168))),
                    Offer(id: "we-miss-you", priority: 2, cap: Cap(count: 1, perMs: h(72))),
                    Offer(id: "night-owl", priority: 1),
                    Offer(id: "loyalty", priority: 7, cap: Cap(count: 1)),
                    Offer(id: "thank-you", cap: Cap(count: 1, perMs: h(24)))])
        let mall = Campaign(id: "mall-events", active: ActiveWindow(fromMs: utc(2026, 3, 9, 18), untilMs: utc(2026, 3, 14, 7), timezone: la),
                            regions: [region("mall")], rules: [
            Rule(id: "mall-visit", condition: .inside(InsideCondition(selector: sel(["mall"]))), offer: "event-invite"),
        ], offers: [Offer(id: "event-invite", priority: 6, cap: Cap(count: 1, perMs: h(24)))])
        return CampaignSet(campaigns: [insurance, cars, fitness, lorr, mall], settings: Settings(perUserLimit: Cap(count: 3, perMs: h(24))))
    }

    /// Parses `2026-03-09T21:33:16Z` / `...16.250Z` / `...16-08:00` to Unix ms.
    static func parseTime(_ s: String) -> Int64? {
        let b = Array(s.utf8)
        guard b.count >= 20 else { return nil }
        func num(_ r: Range<Int>) -> Int64? { Int64(String(decoding: b[r], as: UTF8.self)) }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let hh = num(11..<13), let mm = num(14..<16),
              let ss = num(17..<19) else { return nil }
        var i = 19, frac: Int64 = 0
        if b[i] == UInt8(ascii: ".") {
            var digits = 0
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { if digits < 3 { frac = frac * 10 + Int64(b[i] - 0x30); digits += 1 }; i += 1 }
            while digits < 3 { frac *= 10; digits += 1 }
        }
        var offset: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), let oh = num(i + 1..<i + 3), let om = num(i + 4..<i + 6) {
            offset = (oh * 60 + om) * 60_000 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        }
        return utc(y, mo, d, hh, mm, ss) + frac - offset
    }

    static func jsonLines(_ name: String) throws -> [[String: Any]] {
        let dir = name == "timelines.jsonl" ? fixtures : TestData.url("conformance-1")
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    struct Expected: Equatable, CustomStringConvertible {
        let time: Int64, campaign: String, rule: String, offer: String, status: String
        let evidence: Set<String>
        var description: String { "\(Timestamp.string(time)) \(campaign)/\(rule)/\(offer) \(status) \(evidence.sorted())" }
    }

    func testDecisionsMatchTheExample() throws {
        let set = Self.campaignSet
        let campaignIndex = Dictionary(uniqueKeysWithValues: set.campaigns.enumerated().map { ($0.element.id, $0.offset) })
        // Visits per user per campaign from the events.
        var visits: [String: [[Visit]]] = [:]
        var openUsers: Set<String> = []
        var pendingEnters: [String: Int] = [:]
        for e in try Self.jsonLines("events.jsonl") {
            let user = try XCTUnwrap(e["user"] as? String), cid = try XCTUnwrap(e["campaign"] as? String)
            let rid = try XCTUnwrap(e["region"] as? String), c = try XCTUnwrap(campaignIndex[cid])
            let r = try XCTUnwrap(set.campaigns[c].regions.firstIndex { $0.id == rid })
            let time = try XCTUnwrap(Self.parseTime(try XCTUnwrap(e["time"] as? String)))
            let key = "\(user)|\(cid)|\(rid)"
            if e["type"] as? String == "enter" {
                pendingEnters[key, default: 0] += 1
            } else {
                pendingEnters[key, default: 0] -= 1
                let enter = try XCTUnwrap(Self.parseTime(try XCTUnwrap(e["enter"] as? String)))
                let reason = ExitReason(rawValue: try XCTUnwrap(e["reason"] as? String))
                var perCampaign = visits[user] ?? Array(repeating: [], count: set.campaigns.count)
                perCampaign[c].append(Visit(region: Int32(r), enter: enter, exit: time, lastSeen: time, reason: reason))
                visits[user] = perCampaign
            }
        }
        for (key, n) in pendingEnters where n > 0 { openUsers.insert(String(key.split(separator: "|")[0])) }

        var expected: [String: [Expected]] = [:]
        for d in try Self.jsonLines("decisions.jsonl") {
            let user = try XCTUnwrap(d["user"] as? String)
            let evidence = try XCTUnwrap(d["evidence"] as? [[String: Any]]).map { ev in
                "\(ev["region"] as? String ?? "") \(ev["enter"] as? String ?? "") \(ev["exit"] as? String ?? "null")"
            }
            expected[user, default: []].append(Expected(
                time: try XCTUnwrap(Self.parseTime(try XCTUnwrap(d["time"] as? String))),
                campaign: try XCTUnwrap(d["campaign"] as? String), rule: try XCTUnwrap(d["rule"] as? String),
                offer: try XCTUnwrap(d["offer"] as? String), status: try XCTUnwrap(d["status"] as? String),
                evidence: d["rule"] as? String == "post-workout" ? [] : Set(evidence)))
        }

        let evaluators = set.campaigns.enumerated().map { RuleEvaluator(campaign: $0.element, campaignIndex: $0.offset) }
        let arbiter = Arbiter(campaigns: set)
        var compared = 0, decisionsCompared = 0
        for line in try Self.jsonLines("timelines.jsonl") {
            let user = try XCTUnwrap(line["user"] as? String)
            guard !openUsers.contains(user) else { continue }
            let t0 = try XCTUnwrap((line["t0"] as? NSNumber)?.int64Value), tEnd = try XCTUnwrap((line["tEnd"] as? NSNumber)?.int64Value)
            let userVisits = visits[user] ?? Array(repeating: [], count: set.campaigns.count)
            let triggers = evaluators.flatMap { $0.triggers(visits: userVisits[$0.campaignIndex], t0: t0, tEnd: tEnd) }
            let got = arbiter.decide(userId: user, triggers: triggers).map { d -> Expected in
                let c = set.campaigns[d.trigger.campaign], rule = c.rules[d.trigger.rule]
                let ev = d.trigger.evidence.map { i -> String in
                    let v = userVisits[d.trigger.campaign][i]
                    return "\(c.regions[Int(v.region)].id) \(Timestamp.string(v.enter)) \(v.exit.map(Timestamp.string) ?? "null")"
                }
                return Expected(time: d.trigger.time, campaign: c.id, rule: rule.id, offer: rule.offer, status: d.status.rawValue,
                                evidence: rule.id == "post-workout" ? [] : Set(ev))
            }
            XCTAssertEqual(got, expected[user] ?? [], "user \(user)")
            compared += 1
            decisionsCompared += got.count
        }
        XCTAssertGreaterThanOrEqual(compared, 15)
        XCTAssertGreaterThan(decisionsCompared, 50)
        print("conformance-1: compared \(compared) users, \(decisionsCompared) decisions")
    }
}
