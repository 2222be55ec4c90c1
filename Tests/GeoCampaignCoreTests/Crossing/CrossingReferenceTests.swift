import XCTest
@testable import GeoCampaignCore

/// Differential test: the engine (index + per-region state machines) against a literal,
/// look-ahead reading of semantics.md 2.2-2.3 written independently below, on random tracks
/// around random circles and polygons with jitter, equal times, gaps and poor accuracy.
final class CrossingReferenceTests: XCTestCase {
    /// Semantics 2.3 read literally, per region and segment, by searching forward for the
    /// confirming fix. O(fixes^2) at worst; for tests only.
    static func reference(campaign: Campaign, settings: Settings, fixes: [Fix], tEnd: Int64) -> [Visit] {
        let p = CrossingParameters(campaign: campaign, settings: settings)
        let used = fixes.filter { !($0.accuracy > p.maxAccuracyM) }
        var segments: [[Fix]] = []
        for f in used {
            if let last = segments.last?.last, f.time - last.time <= p.maxGapMs { segments[segments.count - 1].append(f) } else { segments.append([f]) }
        }
        var out: [Visit] = []
        for (r, region) in campaign.regions.enumerated() {
            let g = RegionGeometry(region.shape)
            let h = p.hysteresisM[r], confirm = p.confirmMs[r]
            for (s, seg) in segments.enumerated() {
                let cls = seg.map { f -> FixClass in
                    let d = g.placement(of: Coordinate(lat: f.lat, lon: f.lon)).depthM
                    return d >= h ? .inside : (d <= -h ? .outside : .band)
                }
                let t = seg.map(\.time)
                var inside = false, enter: Int64 = 0, last: Int64 = 0, pendingExit: Int64? = nil
                var k = 0
                scan: while k < seg.count {
                    if !inside {
                        guard cls[k] == .inside else { k += 1; continue }
                        let j = t.indices.first { $0 >= k && t[$0] >= t[k] + confirm }
                        let stop = j ?? seg.count - 1
                        if let o = (k...stop).first(where: { cls[$0] == .outside }) { k = o + 1; continue }
                        guard let j else { break scan }       // unconfirmed at the segment's end
                        inside = true; enter = t[k]; last = t[j]; k = j + 1
                    } else {
                        guard cls[k] == .outside else { last = t[k]; k += 1; continue }
                        let j = t.indices.first { $0 >= k && t[$0] >= t[k] + confirm }
                        let stop = j ?? seg.count - 1
                        if let i = (k...stop).first(where: { cls[$0] == .inside }) { last = t[i]; k = i + 1; continue }
                        guard let j else { pendingExit = t[k]; break scan }
                        out.append(Visit(region: Int32(r), enter: enter, exit: t[k], lastSeen: t[k], reason: .left))
                        inside = false; k = j + 1
                    }
                }
                guard inside else { continue }
                let end = pendingExit ?? last
                let isLast = s == segments.count - 1
                if !isLast || tEnd - (seg.last?.time ?? 0) > p.maxGapMs {
                    out.append(Visit(region: Int32(r), enter: enter, exit: end, lastSeen: end, reason: .gap))
                } else {
                    out.append(Visit(region: Int32(r), enter: enter, exit: nil, lastSeen: end, reason: nil))
                }
            }
        }
        return out.sorted { ($0.enter, $0.region, $0.exit ?? .max) < ($1.enter, $1.region, $1.exit ?? .max) }
    }

    static func randomCampaign(_ rng: inout SplitMix64) -> Campaign {
        let centre = Coordinate(lat: 45, lon: 10)
        let m = 1 / Earth.radiusM * 180 / Double.pi   // degrees of latitude per meter
        func jitter(_ meters: Double) -> Double { (rng.unit() - 0.5) * 2 * meters * m }
        var regions: [Region] = []
        let hs: [Double?] = [nil, 0, 5, 20, 35]
        let cs: [Int64?] = [nil, 0, 5_000, 20_000, 60_000]
        for i in 0..<6 {
            let c = Coordinate(lat: centre.lat + jitter(300), lon: centre.lon + jitter(400))
            regions.append(Region(id: "c\(i)", shape: .circle(center: c, radiusM: 40 + rng.unit() * 200),
                                  hysteresisM: hs[Int(rng.next() % 5)], confirmMs: cs[Int(rng.next() % 5)]))
        }
        for i in 0..<3 {
            let c = Coordinate(lat: centre.lat + jitter(300), lon: centre.lon + jitter(400))
            let s = (60 + rng.unit() * 150) * m
            let ring = [Coordinate(lat: c.lat - s, lon: c.lon - 1.4 * s), Coordinate(lat: c.lat - s, lon: c.lon + 1.4 * s),
                        Coordinate(lat: c.lat + s, lon: c.lon + 1.4 * s), Coordinate(lat: c.lat + s, lon: c.lon - 1.4 * s)]
            let hole = [Coordinate(lat: c.lat - s / 3, lon: c.lon - s / 2), Coordinate(lat: c.lat - s / 3, lon: c.lon + s / 2),
                        Coordinate(lat: c.lat + s / 3, lon: c.lon)]
            var parts = [Region.PolygonPart(outer: ring, holes: i == 0 ? [hole] : [])]
            if i == 1 { parts.append(Region.PolygonPart(outer: ring.map { Coordinate(lat: $0.lat + 3 * s, lon: $0.lon) })) }
            regions.append(Region(id: "p\(i)", shape: .polygon(parts), hysteresisM: hs[Int(rng.next() % 5)], confirmMs: cs[Int(rng.next() % 5)]))
        }
        let gaps: [Int64?] = [nil, 60_000, 300_000]
        return Campaign(id: "r", tracking: Tracking(hysteresisM: [nil, 10, 25][Int(rng.next() % 3)],
                                                    confirmMs: [nil, 0, 15_000][Int(rng.next() % 3)],
                                                    maxAccuracyM: [nil, 50][Int(rng.next() % 2)],
                                                    maxGapMs: gaps[Int(rng.next() % 3)]),
                        regions: regions, rules: [], offers: [])
    }

    /// A random walk: mostly small steps (jitter), sometimes a stay, a jump, a long silence,
    /// equal timestamps, or a fix of poor accuracy.
    static func randomTrack(_ rng: inout SplitMix64, count: Int) -> [Fix] {
        let m = 1 / Earth.radiusM * 180 / Double.pi
        var lat = 45 + (rng.unit() - 0.5) * 700 * m, lon = 10 + (rng.unit() - 0.5) * 900 * m
        var t: Int64 = 1_772_000_000_000
        var out: [Fix] = []
        for _ in 0..<count {
            let roll = rng.unit()
            if roll < 0.03 { t += Int64(rng.next() % 4_000_000) } else if roll < 0.1 { t += 0 } else { t += Int64(rng.next() % 30_000) }
            let step = rng.unit() < 0.05 ? 300.0 : (rng.unit() < 0.5 ? 8.0 : 40.0)
            lat += (rng.unit() - 0.5) * 2 * step * m
            lon += (rng.unit() - 0.5) * 2 * step * m * 1.4
            lat = min(max(lat, 45 - 600 * m), 45 + 600 * m)
            lon = min(max(lon, 10 - 800 * m), 10 + 800 * m)
            let acc: Double = rng.unit() < 0.1 ? 30 + rng.unit() * 200 : (rng.unit() < 0.3 ? .nan : rng.unit() * 40)
            out.append(Fix(time: t, lat: lat, lon: lon, accuracy: acc))
        }
        return out
    }

    func testEngineMatchesLiteralReference() {
        var rng = SplitMix64(seed: 2026)
        var visitsSeen = 0, gapsSeen = 0, openSeen = 0
        for trial in 0..<300 {
            let campaign = Self.randomCampaign(&rng)
            let settings = Settings(tracking: Tracking(hysteresisM: [nil, 15][Int(rng.next() % 2)], confirmMs: [nil, 30_000][Int(rng.next() % 2)]))
            let fixes = Self.randomTrack(&rng, count: 50 + Int(rng.next() % 400))
            let lastTime = fixes.last?.time ?? 0
            let tEnd = rng.unit() < 0.3 ? lastTime : lastTime + Int64(rng.next() % 3_000_000)
            let got = CrossingEngine(campaign: campaign, settings: settings).visits(fixes: fixes, tEnd: tEnd)
            let want = Self.reference(campaign: campaign, settings: settings, fixes: fixes, tEnd: tEnd)
            XCTAssertEqual(got, want, "trial \(trial)")
            if got != want { break }
            visitsSeen += got.count
            gapsSeen += got.filter { $0.reason == .gap }.count
            openSeen += got.filter { $0.exit == nil }.count
        }
        XCTAssertGreaterThan(visitsSeen, 500)
        XCTAssertGreaterThan(gapsSeen, 50)
        XCTAssertGreaterThan(openSeen, 20)
    }

    /// Campaigns grouped by (max_accuracy, max_gap) into shared engines give exactly the visits of
    /// one engine per campaign.
    func testGroupedCampaignsEqualOneEnginePerCampaign() {
        var rng = SplitMix64(seed: 77)
        for trial in 0..<40 {
            let campaigns = (0..<6).map { k -> Campaign in
                var c = Self.randomCampaign(&rng)
                c.id = "c\(k)"
                return c
            }
            let settings = Settings(tracking: Tracking(hysteresisM: 15))
            let grouped = CampaignCrossing(campaigns: campaigns, settings: settings)
            XCTAssertLessThan(grouped.groups.count, 6)
            let engines = campaigns.map { CrossingEngine(campaign: $0, settings: settings) }
            for _ in 0..<5 {
                let fixes = Self.randomTrack(&rng, count: 200)
                let tEnd = (fixes.last?.time ?? 0) + Int64(rng.next() % 3_000_000)
                XCTAssertEqual(grouped.visits(fixes: fixes, tEnd: tEnd), engines.map { $0.visits(fixes: fixes, tEnd: tEnd) }, "trial \(trial)")
            }
        }
    }
}
