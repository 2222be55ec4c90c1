import XCTest
@testable import GeoCampaignCore

/// A throughput check of the crossing engine alone: 1M fixes (1,000 users walking and stopping)
/// over 10,000 circles and polygons of 50-400 m in a 30 km city. Opt-in, since debug builds say
/// nothing about speed: `GEOCAMPAIGN_THROUGHPUT=1 swift test -c release --filter CrossingThroughput`.
/// The project's performance figures come from `make bench`; this guards the engine's share.
final class CrossingThroughputTests: XCTestCase {
    func testMillionFixesOverTenThousandRegions() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["GEOCAMPAIGN_THROUGHPUT"] != nil, "set GEOCAMPAIGN_THROUGHPUT=1 (release build)")
        var rng = SplitMix64(seed: 11)
        let city = Coordinate(lat: 37.7, lon: -121.8)
        let regions = RegionIndexTests.randomRegions(10_000, rng: &rng, around: city, spreadDeg: 0.3, sizes: [50, 100, 200, 400])
        let buildStart = Date()
        let engine = CrossingEngine(campaign: Campaign(id: "city", regions: regions, rules: [], offers: []), settings: Settings())
        let buildTime = Date().timeIntervalSince(buildStart)
        let m = 1 / Earth.radiusM * 180 / Double.pi
        var users: [[Fix]] = []
        for _ in 0..<1_000 {
            var lat = city.lat + (rng.unit() - 0.5) * 0.3, lon = city.lon + (rng.unit() - 0.5) * 0.3
            var t: Int64 = 1_772_000_000_000
            var fixes: [Fix] = []
            fixes.reserveCapacity(1_000)
            var stayLeft = 0
            for _ in 0..<1_000 {
                t += 5_000 + Int64(rng.next() % 20_000)
                if stayLeft > 0 { stayLeft -= 1; lat += (rng.unit() - 0.5) * 10 * m; lon += (rng.unit() - 0.5) * 10 * m }
                else {
                    if rng.unit() < 0.02 { stayLeft = 40 }
                    lat += (rng.unit() - 0.5) * 80 * m; lon += (rng.unit() - 0.5) * 100 * m
                }
                fixes.append(Fix(time: t, lat: lat, lon: lon, accuracy: rng.unit() * 60))
            }
            users.append(fixes)
        }
        let start = Date()
        var visits = 0
        for fixes in users { visits += engine.visits(fixes: fixes, tEnd: fixes.last?.time ?? 0).count }
        let elapsed = Date().timeIntervalSince(start)
        print("crossing: 1,000,000 fixes x 10,000 regions in \(elapsed) s (\(Int(1_000_000 / elapsed)) fixes/s on one core), \(visits) visits, index built in \(buildTime) s")
        XCTAssertGreaterThan(visits, 1_000)
        XCTAssertLessThan(elapsed, 10)
    }
}
