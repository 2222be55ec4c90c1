import XCTest
@testable import GeoCampaignCore

/// The table from region to track position that the crossing loop uses once a user has more
/// tracks than it scans (`TrackSlots.linearLimit`): its own behaviour, the crossing with many
/// overlapping regions against the literal reference, and a hang guard at 40k overlapping regions
/// (issue 10 item 7: 100 fixes took 12 s there with a scan per candidate, 100 s at 100k).
final class TrackSlotsTests: XCTestCase {
    private func tracks(_ regions: [Int32]) -> [RegionTrack] {
        regions.map { RegionTrack.start(region: $0, at: 0, confirmMs: 0, stamp: 0) }
    }

    func testFindsEveryMirroredTrackAndNothingElse() {
        var slots = TrackSlots()
        defer { slots.free() }
        var rng = SplitMix64(seed: 10_007)
        var regions: [Int32] = []
        while regions.count < 3_000 {
            let r = Int32(rng.next() % 1_000_000)
            if !regions.contains(r) { regions.append(r) }
        }
        let all = tracks(regions)
        // Grown by appends, a prefix at a time (as the loop adds tracks fix by fix).
        for n in [0, 1, 9, 10, 100, 1_000, 3_000] {
            slots.sync(all, n)
            XCTAssertEqual(slots.count, n)
            for (k, r) in regions.enumerated() {
                XCTAssertEqual(slots.find(r), k < n ? k : nil, "n \(n), track \(k)")
                if k >= n + 10 { break }
            }
            XCTAssertNil(slots.find(1_000_001))
        }
        // Tracks removed and moved: after invalidate() the table mirrors the new order.
        let kept = regions.enumerated().filter { $0.offset % 3 != 1 }.map(\.element).reversed()
        let moved = tracks(Array(kept))
        slots.invalidate()
        slots.sync(moved, moved.count)
        for (k, r) in kept.enumerated() { XCTAssertEqual(slots.find(r), k) }
        for (k, r) in regions.enumerated() where k % 3 == 1 { XCTAssertNil(slots.find(r)) }
    }

    func testARegionListedTwiceFindsItsFirstTrack() {
        var slots = TrackSlots()
        defer { slots.free() }
        let list = tracks([5, 7, 5, 9, 11, 13, 15, 17, 19, 21])
        slots.sync(list, list.count)
        XCTAssertEqual(slots.find(5), 0)
        XCTAssertEqual(slots.find(21), 9)
    }

    /// Up to 60 overlapping regions around a random walk, so that a user has far more tracks than
    /// the loop scans, with gaps (which drop every track) and exits (which remove some): the
    /// engine's visits equal the literal reading of semantics.md 2.3.
    func testManyOverlappingRegionsMatchTheReference() {
        var rng = SplitMix64(seed: 4_242)
        let m = 1 / Earth.radiusM * 180 / Double.pi
        var maxOpenAtOnce = 0
        for trial in 0..<12 {
            var regions: [Region] = []
            for i in 0..<(20 + Int(rng.next() % 41)) {
                let c = Coordinate(lat: 45 + (rng.unit() - 0.5) * 200 * m, lon: 10 + (rng.unit() - 0.5) * 280 * m)
                regions.append(Region(id: "o\(i)", shape: .circle(center: c, radiusM: 300 + rng.unit() * 600),
                                      hysteresisM: [nil, 0, 10][Int(rng.next() % 3)], confirmMs: [nil, 0, 15_000][Int(rng.next() % 3)]))
            }
            let campaign = Campaign(id: "o", tracking: Tracking(maxGapMs: 600_000), regions: regions, rules: [], offers: [])
            let settings = Settings()
            let fixes = CrossingReferenceTests.randomTrack(&rng, count: 150 + Int(rng.next() % 200))
            let tEnd = (fixes.last?.time ?? 0) + Int64(rng.next() % 2_000_000)
            let got = CrossingEngine(campaign: campaign, settings: settings).visits(fixes: fixes, tEnd: tEnd)
            let want = CrossingReferenceTests.reference(campaign: campaign, settings: settings, fixes: fixes, tEnd: tEnd)
            XCTAssertEqual(got, want, "trial \(trial)")
            if got != want { break }
            // How many visits were open at one instant (tracks at once, at least).
            for v in got {
                let open = got.filter { $0.enter <= v.enter && ($0.exit ?? .max) > v.enter }.count
                maxOpenAtOnce = max(maxOpenAtOnce, open)
            }
        }
        XCTAssertGreaterThan(maxOpenAtOnce, 3 * TrackSlots.linearLimit, "the table must be exercised")
    }

    /// 100 fixes inside 40,000 overlapping regions: 40,000 open visits, each entered at the first
    /// fix. Before the table, each candidate scanned every track (about 8 x 10^10 comparisons,
    /// 12 s in a release build, far longer in a debug one); now it takes well under a second in a
    /// release build. The time is printed, not asserted (performance is measured by `make bench`).
    func testFortyThousandOverlappingRegionsAreLinear() {
        let n = 40_000
        let m = 1 / Earth.radiusM * 180 / Double.pi
        var rng = SplitMix64(seed: 40_000)
        let shapes = (0..<n).map { _ in
            Region.Shape.circle(center: Coordinate(lat: 45 + (rng.unit() - 0.5) * 100 * m, lon: 10 + (rng.unit() - 0.5) * 140 * m),
                                radiusM: 500 + rng.unit() * 200)
        }
        let params = CrossingParameters(maxAccuracyM: 100, maxGapMs: 1_800_000, hysteresisM: [Double](repeating: 20, count: n),
                                        confirmMs: [Int64](repeating: 20_000, count: n))
        let engine = CrossingEngine(shapes: shapes, parameters: params)
        let fixes = (0..<100).map { i in
            Fix(time: 1_772_000_000_000 + Int64(i) * 10_000, lat: 45 + Double(i % 7) * 5 * m, lon: 10 + Double(i % 5) * 5 * m, accuracy: 10)
        }
        let start = Date()
        let visits = engine.visits(fixes: fixes, tEnd: fixes[99].time)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(visits.count, n)
        XCTAssertTrue(visits.allSatisfy { $0.enter == fixes[0].time && $0.exit == nil && $0.lastSeen == fixes[99].time })
        print("100 fixes inside 40k regions: \(seconds) s")
    }
}
