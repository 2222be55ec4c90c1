import XCTest
@testable import GeoCampaignCore

/// The engine on polygons with holes, MultiPolygons and several regions at once.
final class CrossingShapesTests: XCTestCase {
    static let square = GeometryTests.square
    static let hole = GeometryTests.hole
    /// Walk along the parallel 45 N, eastwards, one fix every 10 s from lon 9.9985 to 10.0015
    /// (0.0001 deg of longitude is about 7.9 m there).
    static func walkEast(from: Double = 9.9985, to: Double = 10.0015, step: Double = 0.0001, dt: Int64 = 10_000) -> [Fix] {
        var out: [Fix] = []
        var lon = from, t: Int64 = 0
        while lon <= to + 1e-12 {
            out.append(Fix(time: t, lat: 45, lon: lon))
            lon += step; t += dt
        }
        return out
    }

    func testPolygonWithHoleExitsIntoTheHoleAndReenters() {
        let region = Region(id: "ring", shape: .polygon([Region.PolygonPart(outer: Self.square, holes: [Self.hole])]),
                            hysteresisM: 10, confirmMs: 20_000)
        let engine = CrossingEngine(campaign: Campaign(id: "c", regions: [region], rules: [], offers: []), settings: Settings())
        let fixes = Self.walkEast()
        // Classify to find the expected times: IN from the first fix >= 10 m inside the outer ring,
        // OUT in the hole's interior; the hole spans lon 9.9995...10.0005.
        let classes = fixes.map { engine.fixClass($0, region: 0) }
        XCTAssertTrue(classes.contains(.outside))
        let visits = engine.visits(fixes: fixes, tEnd: fixes.last?.time ?? 0)
        XCTAssertEqual(visits.count, 2, "\(visits)")
        let firstIn = fixes[classes.firstIndex(of: .inside) ?? 0].time
        let holeOut = fixes.indices.first { fixes[$0].lon > 9.9995 && classes[$0] == .outside }.map { fixes[$0].time }
        XCTAssertEqual(visits.first?.enter, firstIn)
        XCTAssertEqual(visits.first?.exit, holeOut)
        XCTAssertEqual(visits.first?.reason, .left)
        let reIn = fixes.indices.first { fixes[$0].lon > 10.0005 && classes[$0] == .inside }.map { fixes[$0].time }
        XCTAssertEqual(visits.last?.enter, reIn)
        // A fix in the middle of the hole is OUT, never IN.
        XCTAssertEqual(engine.fixClass(Fix(time: 0, lat: 45, lon: 10), region: 0), .outside)
    }

    func testMultiPolygonIsOneRegion() {
        let east = Self.square.map { Coordinate(lat: $0.lat, lon: $0.lon + 0.0025) }
        let region = Region(id: "two", shape: .polygon([Region.PolygonPart(outer: Self.square), Region.PolygonPart(outer: east)]),
                            hysteresisM: 5, confirmMs: 20_000)
        let engine = CrossingEngine(campaign: Campaign(id: "c", regions: [region], rules: [], offers: []), settings: Settings())
        // Squares: lon 9.999...10.001 and 10.0015...10.0035. The 39 m strip between them holds
        // 4 OUT fixes for h 5 m (lon 10.0011...10.0014, 7.9 m and 15.7 m from an edge).
        // Every 4 s the first OUT fix and the boundary (BAND) fix after the strip are 16 s apart,
        // under confirm, and the next fix is IN: one visit over both parts. (Every 5 s, the
        // boundary fix would come exactly at t0 + confirm and confirm the exit.)
        let fast = Self.walkEast(from: 9.9985, to: 10.0045, step: 0.0001, dt: 4_000)
        let visits = engine.visits(fixes: fast, tEnd: fast.last?.time ?? 0)
        XCTAssertEqual(visits.count, 1, "\(visits)")
        XCTAssertEqual(visits.first?.reason, .left)
        // Every 10 s they span 30 s >= confirm: the strip is a confirmed exit, then a new visit.
        let slow = Self.walkEast(from: 9.9985, to: 10.0045, step: 0.0001, dt: 10_000)
        let two = engine.visits(fixes: slow, tEnd: slow.last?.time ?? 0)
        XCTAssertEqual(two.count, 2, "\(two)")
        XCTAssertEqual(two.first?.exit, slow.first { $0.lon > 10.00105 }?.time)
    }

    func testRegionsTheIndexDoesNotReturnAreOutForStateAndResultsAreSorted() {
        typealias S = CrossingTestSupport
        let far = Coordinate(lat: 46, lon: 11)
        let campaign = Campaign(id: "c", regions: [
            Region(id: "far", shape: .circle(center: far, radiusM: 100)),
            Region(id: "a", shape: .circle(center: S.center, radiusM: 100)),
            Region(id: "a-twin", shape: .circle(center: S.center, radiusM: 100)),
        ], rules: [], offers: [])
        let engine = CrossingEngine(campaign: campaign, settings: Settings())
        let farFix = { (t: Int64) in Fix(time: t, lat: far.lat, lon: far.lon) }
        // Inside a and a-twin, then a jump 130 km away into far: a's exit candidate is the first far fix.
        let fixes = [S.fix(0, depth: 50), S.fix(20, depth: 50), farFix(100_000), farFix(110_000), farFix(120_000), farFix(130_000)]
        let visits = engine.visits(fixes: fixes, tEnd: 130_000)
        XCTAssertEqual(visits, [
            Visit(region: 1, enter: 0, exit: 100_000, lastSeen: 100_000, reason: .left),
            Visit(region: 2, enter: 0, exit: 100_000, lastSeen: 100_000, reason: .left),
            Visit(region: 0, enter: 100_000, exit: nil, lastSeen: 130_000, reason: nil),
        ])
    }

    func testEngineIsReusableAcrossUsersAndThreads() {
        typealias S = CrossingTestSupport
        let engine = CrossingEngine(campaign: S.campaign(), settings: Settings())
        let fixes = [S.fix(0, depth: 50), S.fix(20, depth: 50), S.fix(100, depth: -50), S.fix(120, depth: -50)]
        let want = engine.visits(fixes: fixes, tEnd: S.ms(120))
        XCTAssertEqual(want.count, 1)
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            results[i] = engine.visits(fixes: fixes, tEnd: S.ms(120)) == want ? 1 : 0
        }
        XCTAssertEqual(results.reduce(0, +), 64)
        XCTAssertEqual(engine.visits(fixes: [], tEnd: 0), [])
    }
}

final class CrossingInputFormsTests: XCTestCase {
    /// Arrays, slices of a larger array and raw buffers give the same visits.
    func testSliceAndBufferOverloadsAgree() {
        typealias S = CrossingTestSupport
        let engine = CrossingEngine(campaign: S.campaign(), settings: Settings())
        let user = [S.fix(0, depth: 50), S.fix(20, depth: 50), S.fix(100, depth: -50), S.fix(130, depth: -50), S.fix(140, depth: 50)]
        let other = [S.fix(0, depth: -50), S.fix(10, depth: 50)]
        let all = other + user + other
        let slice = all[other.count..<(other.count + user.count)]
        let want = engine.visits(fixes: user, tEnd: S.ms(140))
        XCTAssertEqual(want, [Visit(region: 0, enter: 0, exit: 100_000, lastSeen: 100_000, reason: .left)])
        XCTAssertEqual(engine.visits(fixes: slice, tEnd: S.ms(140)), want)
        XCTAssertEqual(user.withUnsafeBufferPointer { engine.visits(fixes: $0, tEnd: S.ms(140)) }, want)
    }
}
