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

    func check(_ campaign: Campaign) throws {
        let fixes = try ConformanceHistory.fixesByUser()
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
}
