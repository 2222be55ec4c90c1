import XCTest
@testable import GeoCampaignCore

/// The crossing engine against the conformance example's events.jsonl (computed by an independent
/// implementation of the spec): campaigns built by hand from the YAML, exact milliseconds.
final class ConformanceCrossingTests: XCTestCase {
    /// settings.yaml: `tracking: { hysteresis: 20m, max_gap: 30m }`.
    static let settings = Settings(tracking: Tracking(hysteresisM: 20, maxGapMs: 30 * 60_000))

    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon) }

    /// campaigns/fitness-fuel.yaml (regions only; rules and offers do not affect crossing).
    static let fitnessFuel = Campaign(id: "fitness-fuel", regions: [
        Region(id: "gym", tags: ["fitness"], shape: .circle(center: c(37.691799, -121.730452), radiusM: 80),
               hysteresisM: 10, confirmMs: 60_000),
        Region(id: "juice-bar", tags: ["food"], shape: .circle(center: c(37.696295, -121.733520), radiusM: 50),
               hysteresisM: 8),
        Region(id: "mall", tags: ["shopping"], shape: .polygon([Region.PolygonPart(outer: [
            c(37.695396, -121.737271), c(37.695396, -121.732725), c(37.698094, -121.732725),
            c(37.698094, -121.734430), c(37.696745, -121.734430), c(37.696745, -121.737271)])])),
    ], rules: [], offers: [])

    /// campaigns/lorrenzillos.yaml without its GeoJSON import (campaign tracking `confirm: 20s`).
    static let lorrenzillos = Campaign(id: "lorrenzillos", tracking: Tracking(confirmMs: 20_000), regions: [
        Region(id: "lorrenzillos", tags: ["own-restaurant"], shape: .circle(center: c(37.703026, -121.759735), radiusM: 300),
               hysteresisM: 30),
        Region(id: "pizza-co", tags: ["competitor", "pizza"], shape: .polygon([Region.PolygonPart(outer: [
            c(37.702780, -121.750094), c(37.703242, -121.748492), c(37.704171, -121.748920), c(37.703710, -121.750522)])])),
        Region(id: "plaza", tags: ["shopping"], shape: .circle(center: c(37.704375, -121.748370), radiusM: 250)),
        Region(id: "burger-barn", tags: ["competitor"], shape: .polygon([Region.PolygonPart(outer: [
            c(37.694033, -121.769168), c(37.694033, -121.766213), c(37.694932, -121.765986), c(37.695831, -121.766213),
            c(37.695831, -121.769168), c(37.694932, -121.769509)], holes: [[
            c(37.695247, -121.768315), c(37.695247, -121.767065), c(37.694617, -121.767065), c(37.694617, -121.768315)]])]),
               confirmMs: 45_000),
        Region(id: "noodle-bar", tags: ["competitor"], shape: .circle(center: c(37.689536, -121.757462), radiusM: 200 * 0.3048),
               confirmMs: 0),
    ], rules: [], offers: [])

    /// Car dealers (Points, radius 120 m) and auto malls (Polygons with holes) under the tracking of
    /// car-shoppers.yaml and auto-insurance.yml (identical): h 25 m, confirm 30 s, 80 m, 20 min.
    static func dealerCampaign(_ id: String) throws -> Campaign {
        let regions = try ConformanceHistory.importRegions("car-dealers.geojson", radiusM: 120)
            + ConformanceHistory.importRegions("auto-malls.geojson")
        return Campaign(id: id, tracking: Tracking(hysteresisM: 25, confirmMs: 30_000, maxAccuracyM: 80, maxGapMs: 20 * 60_000),
                        regions: regions, rules: [], offers: [])
    }

    nonisolated(unsafe) static var cachedFixes: [String: [Fix]]?
    static let lock = NSLock()
    static func fixes() throws -> [String: [Fix]] {
        lock.lock(); defer { lock.unlock() }
        if let cachedFixes { return cachedFixes }
        let f = try ConformanceHistory.fixesByUser()
        cachedFixes = f
        return f
    }

    /// The five campaigns above cover every line of events.jsonl.
    func testTheCampaignsCoverEveryReferenceEvent() throws {
        var campaigns = [Self.fitnessFuel, Self.lorrenzillos, try Self.dealerCampaign("car-shoppers"), try Self.dealerCampaign("auto-insurance"),
                         Campaign(id: "mall-events", regions: [Self.fitnessFuel.regions[2]], rules: [], offers: [])]
        campaigns[1].regions += try ConformanceHistory.importRegions("taco-town.geojson", idProperty: "ref")
        var covered = 0
        for c in campaigns { covered += try ConformanceHistory.expectedEvents(campaign: c.id, regions: Set(c.regions.map(\.id))).count }
        let total = try ConformanceHistory.lines("events.jsonl").filter { !$0.isEmpty }.count
        XCTAssertEqual(covered, total)
        XCTAssertEqual(total, 510)
    }

    func check(_ campaign: Campaign) throws {
        let fixes = try Self.fixes()
        XCTAssertEqual(fixes.count, 30, "users in the example")
        let expected = try ConformanceHistory.expectedEvents(campaign: campaign.id, regions: Set(campaign.regions.map(\.id)))
        let actual = ConformanceHistory.actualEvents(campaign: campaign, settings: Self.settings, fixesByUser: fixes)
        XCTAssertFalse(expected.isEmpty)
        let missing = expected.filter { !actual.contains($0) }
        let extra = actual.filter { !expected.contains($0) }
        XCTAssertEqual(missing, [], "events the reference has and we do not")
        XCTAssertEqual(extra, [], "events we produce and the reference does not")
        XCTAssertEqual(actual.count, expected.count)
    }

    func testFitnessFuelMatchesReferenceEvents() throws { try check(Self.fitnessFuel) }

    func testLorrenzillosCircleAndPolygonRegionsMatchReferenceEvents() throws { try check(Self.lorrenzillos) }

    func testLorrenzillosWithTacoTownMultiPolygonImportMatchesReferenceEvents() throws {
        var campaign = Self.lorrenzillos
        campaign.regions += try ConformanceHistory.importRegions("taco-town.geojson", idProperty: "ref")
        XCTAssertEqual(campaign.regions.last?.id, "taco-town")
        try check(campaign)
    }

    func testCarShoppersDealerPointsAndAutoMallsMatchReferenceEvents() throws { try check(try Self.dealerCampaign("car-shoppers")) }

    func testAutoInsuranceMatchesReferenceEvents() throws { try check(try Self.dealerCampaign("auto-insurance")) }

    /// mall-events.yaml: the fitness-fuel mall polygon under the settings' tracking only.
    func testMallEventsMatchesReferenceEvents() throws {
        try check(Campaign(id: "mall-events", regions: [Self.fitnessFuel.regions[2]], rules: [], offers: []))
    }
}

/// The whole events.jsonl of the example, in its order: users in byte order, then
/// `CrossingEventOrder` (time, exits before enters, campaign, region).
final class ConformanceEventOrderTests: XCTestCase {
    func testEventsInReferenceOrder() throws {
        typealias C = ConformanceCrossingTests
        var lorrenzillos = C.lorrenzillos
        lorrenzillos.regions += try ConformanceHistory.importRegions("taco-town.geojson", idProperty: "ref")
        // Campaigns in file-name order, as the loader gives them.
        let campaigns = [try C.dealerCampaign("auto-insurance"), try C.dealerCampaign("car-shoppers"), C.fitnessFuel, lorrenzillos,
                         Campaign(id: "mall-events", regions: [C.fitnessFuel.regions[2]], rules: [], offers: [])]
        let engines = campaigns.map { CrossingEngine(campaign: $0, settings: C.settings) }
        let crossing = CampaignCrossing(campaigns: campaigns, settings: C.settings)
        XCTAssertEqual(crossing.groups.count, 2, "dealers (80 m, 20 min) and the rest (100 m, 30 min)")
        let order = CrossingEventOrder(campaigns: campaigns)
        let byUser = try C.fixes()
        let users = byUser.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var actual: [String] = []
        for user in users {
            guard let fixes = byUser[user], let tEnd = fixes.last?.time else { continue }
            let perCampaign = engines.map { $0.visits(fixes: fixes, tEnd: tEnd) }
            XCTAssertEqual(crossing.visits(fixes: fixes, tEnd: tEnd), perCampaign, "grouped engines differ for \(user)")
            for e in order.events(visitsByCampaign: crossing.visits(fixes: fixes, tEnd: tEnd)) {
                let region = campaigns[Int(e.campaign)].regions[Int(e.visit.region)].id
                var line = "\(e.kind) \(user) \(campaigns[Int(e.campaign)].id) \(region) \(Timestamp.string(e.time))"
                if e.kind == .exit { line += " \(Timestamp.string(e.visit.enter)) \(e.visit.duration / 1000) \(e.visit.reason?.rawValue ?? "")" }
                actual.append(line)
            }
        }
        var expected: [String] = []
        for text in try ConformanceHistory.lines("events.jsonl") where !text.isEmpty {
            guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
            var line = "\(o["type"] ?? "") \(o["user"] ?? "") \(o["campaign"] ?? "") \(o["region"] ?? "") \(o["time"] ?? "")"
            if o["type"] as? String == "exit" { line += " \(o["enter"] ?? "") \(o["duration_s"] ?? "") \(o["reason"] ?? "")" }
            expected.append(line)
        }
        XCTAssertEqual(expected.count, 510)
        XCTAssertEqual(actual.count, expected.count)
        for (k, (a, b)) in zip(actual, expected).enumerated() where a != b {
            XCTFail("line \(k + 1): got \(a), want \(b)")
            break
        }
    }

    func testOrderRanksIdsByBytesNotFileOrder() {
        let shape = Region.Shape.circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10)
        let campaigns = [Campaign(id: "b", regions: [Region(id: "z", shape: shape), Region(id: "Z", shape: shape), Region(id: "é", shape: shape)], rules: [], offers: []),
                         Campaign(id: "a", regions: [Region(id: "y", shape: shape)], rules: [], offers: [])]
        let order = CrossingEventOrder(campaigns: campaigns)
        let v = { (r: Int32, enter: Int64, exit: Int64?) in Visit(region: r, enter: enter, exit: exit, lastSeen: exit ?? enter, reason: exit == nil ? nil : .left) }
        let events = order.events(visitsByCampaign: [[v(0, 10, 20), v(1, 10, nil), v(2, 5, 10)], [v(0, 10, 20)]])
        let got = events.map { "\($0.kind) \($0.time) \(campaigns[Int($0.campaign)].id)/\(campaigns[Int($0.campaign)].regions[Int($0.visit.region)].id)" }
        XCTAssertEqual(got, ["enter 5 b/é", "exit 10 b/é", "enter 10 a/y", "enter 10 b/Z", "enter 10 b/z", "exit 20 a/y", "exit 20 b/z"])
    }
}
