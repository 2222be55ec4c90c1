import XCTest
@testable import GeoCampaignCore

/// The anchors of the crossing loop's pass 1 (`CrossingAnchor`): every fix an anchor admits
/// must get the candidates and codes a full probe gives it. Seeded random circles and polygons
/// (every classification method: circles above and within the tolerance, polygons at 0 m, 0.5 mm,
/// 1 m and 20 m) in two tracking groups, and users who stay at points placed on and near the
/// thresholds (`r - h`, `r + h`, polygon vertices and edges, index and grid cell edges) with
/// jitter from a micrometre to 20 m, and users who walk.
final class CrossingAnchorTests: XCTestCase {
    static let m = 1 / Earth.radiusM * 180 / Double.pi

    /// Regions around (45, 10) within about a kilometre, and the core over them (factor 1).
    static func core(_ rng: inout SplitMix64) -> (CrossingCore, [Region.Shape], [Double]) {
        var shapes: [Region.Shape] = [], h: [Double] = []
        for k in 0..<40 {
            if k % 3 == 2 {
                shapes.append(PolygonClassificationTests.randomPolygon(&rng, scale: 0.3 + rng.unit(), maxVertices: 24))
                h.append([0, 0.0005, 1, 20][Int(rng.next() % 4)])
            } else {
                let c = Coordinate(lat: 45 + (rng.unit() - 0.5) * 0.01, lon: 10 + (rng.unit() - 0.5) * 0.014)
                shapes.append(.circle(center: c, radiusM: 20 + rng.unit() * 300))
                h.append([0, 0.0005, 5, 20, 35][Int(rng.next() % 5)])
            }
        }
        let n = shapes.count
        let core = CrossingCore(geometries: shapes.map(RegionGeometry.init), hysteresisM: h, confirmMs: Array(repeating: 10_000, count: n),
                                group: (0..<n).map { Int32($0 % 2) }, campaign: (0..<n).map { Int32($0 % 2) }, localRegion: (0..<n).map { Int32($0 / 2) },
                                groups: [CrossingCore.Group(maxAccuracyM: 50, maxGapMs: 600_000), CrossingCore.Group(maxAccuracyM: 100, maxGapMs: 900_000)],
                                campaignCount: 2)
        return (core, shapes, h)
    }

    /// A point on or near a threshold of a random region, or anywhere.
    static func stayPoint(_ shapes: [Region.Shape], _ h: [Double], _ rng: inout SplitMix64) -> Coordinate {
        let r = Int(rng.next() % UInt64(shapes.count))
        let off = [0, 1e-6, 1e-4, 0.002, 0.5, 3][Int(rng.next() % 6)] * (rng.unit() < 0.5 ? -1 : 1)
        switch shapes[r] {
        case let .circle(center, radiusM):
            let d = radiusM + [h[r], -h[r], 0][Int(rng.next() % 3)] + off
            let a = rng.unit() * 2 * Double.pi
            return Coordinate(lat: center.lat + d * m * sin(a), lon: center.lon + d * m * cos(a) / cos(center.lat * Double.pi / 180))
        case let .polygon(parts):
            let ring = parts[0].outer
            let i = Int(rng.next() % UInt64(ring.count))
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let f = rng.unit() < 0.3 ? 0 : rng.unit()
            return Coordinate(lat: a.lat + f * (b.lat - a.lat) + off * m, lon: a.lon + f * (b.lon - a.lon) + (h[r] + off) * m)
        }
    }

    /// Users who stay (jitter of 1 um to 20 m around a stay point) and who walk.
    static func tracks(_ shapes: [Region.Shape], _ h: [Double], _ rng: inout SplitMix64, count: Int) -> [[Fix]] {
        (0..<count).map { u in
            var t: Int64 = 1_772_000_000_000
            var out: [Fix] = []
            var p = stayPoint(shapes, h, &rng)
            for _ in 0..<(100 + Int(rng.next() % 200)) {
                t += Int64(rng.next() % 40_000)
                if rng.unit() < 0.05 { p = stayPoint(shapes, h, &rng) }
                if u % 4 == 3 { p = Coordinate(lat: p.lat + (rng.unit() - 0.5) * 30 * m, lon: p.lon + (rng.unit() - 0.5) * 40 * m) }
                let jitter = [1e-6, 0.01, 1, 5, 20][u % 5]
                let acc: Double = rng.unit() < 0.2 ? .nan : [10, 70, 150][Int(rng.next() % 3)]
                out.append(Fix(time: t, lat: p.lat + (rng.unit() - 0.5) * 2 * jitter * m, lon: p.lon + (rng.unit() - 0.5) * 2 * jitter * m, accuracy: acc))
            }
            return out
        }
    }

    /// Compares pass 1 with anchors scaled by `factor` against pass 1 with none, on 30 seeded
    /// campaigns: how many fixes the anchors admitted, and how many of them got another list.
    static func compare(factor: Double) -> (fixes: Int, admitted: Int, wrong: Int) {
        var rng = SplitMix64(seed: 1515)
        var fixes = 0, admitted = 0, wrong = 0
        for _ in 0..<30 {
            var (core, shapes, h) = core(&rng)
            var exact = core
            exact.anchorMarginFactor = 0
            core.anchorMarginFactor = factor
            for track in tracks(shapes, h, &rng, count: 12) {
                let got = core.candidateCodes(fixes: track), want = exact.candidateCodes(fixes: track)
                XCTAssertEqual(want.admitted, 0)
                fixes += track.count
                admitted += got.admitted
                for i in track.indices where got.perFix[i].map(\.region) != want.perFix[i].map(\.region) || got.perFix[i].map(\.code) != want.perFix[i].map(\.code) {
                    wrong += 1
                }
            }
        }
        return (fixes, admitted, wrong)
    }

    func testAdmittedFixesGetTheCodesOfAFullProbe() {
        let r = Self.compare(factor: 1)
        print("anchors: \(r.admitted) of \(r.fixes) fixes admitted, \(r.wrong) wrong")
        XCTAssertEqual(r.wrong, 0)
        // Stay points lie on thresholds on purpose, so most anchors admit little; still, many do.
        XCTAssertGreaterThan(r.admitted, 1_000)
    }

    /// Negative control: boxes 4 and 20 times too large admit fixes whose codes differ, so the
    /// comparison above can fail.
    func testLargerBoxesGiveWrongCodes() {
        for factor in [4.0, 20.0] {
            let r = Self.compare(factor: factor)
            print("anchors x\(factor): \(r.admitted) of \(r.fixes) fixes admitted, \(r.wrong) wrong")
            XCTAssertGreaterThan(r.wrong, 0)
        }
    }

    /// The visits with anchors equal those without, on the same users.
    func testVisitsWithAndWithoutAnchors() {
        var rng = SplitMix64(seed: 77)
        var visits = 0
        for _ in 0..<20 {
            let (core, shapes, h) = Self.core(&rng)
            var exact = core
            exact.anchorMarginFactor = 0
            for track in Self.tracks(shapes, h, &rng, count: 8) {
                let tEnd = (track.last?.time ?? 0) + Int64(rng.next() % 2_000_000)
                let got = track.withUnsafeBufferPointer { core.visits(fixes: $0, tEnd: tEnd) }
                let want = track.withUnsafeBufferPointer { exact.visits(fixes: $0, tEnd: tEnd) }
                XCTAssertEqual(got, want)
                visits += want.reduce(0) { $0 + $1.count }
            }
        }
        XCTAssertGreaterThan(visits, 100)
    }
}
