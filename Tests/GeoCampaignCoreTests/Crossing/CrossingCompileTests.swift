import XCTest
@testable import GeoCampaignCore

/// Compiling many regions in parallel chunks straight into flat buffers gives the geometries
/// compiling one by one gives.
final class CrossingCompileTests: XCTestCase {
    func testParallelFlatGeometryEqualsSequentialOne() {
        var rng = SplitMix64(seed: 21)
        let regions = RegionIndexTests.randomRegions(20_000, rng: &rng)
        let shapes = regions.map(\.shape)
        let bounds = CompiledGeometry.bounds(of: shapes)
        let flat = CompiledGeometry(shapes: shapes, bounds: bounds)
        // The one-by-one geometries flattened by the copying path, the reference.
        let reference = CompiledGeometry(geometries: shapes.map { RegionGeometry($0) })
        XCTAssertEqual(flat.heads.count, regions.count)
        XCTAssertEqual(flat.chunkOffsets, reference.chunkOffsets)
        XCTAssertEqual(flat.vertices.count, reference.vertices.count)
        var polygons = 0
        for (i, region) in regions.enumerated() {
            let one = RegionGeometry(region.shape)
            XCTAssertEqual(bounds[i], one.bounds, "region \(i)")
            XCTAssertEqual(flat.heads[i].bounds, one.bounds, "region \(i)")
            switch (flat.heads[i].kind, one.kind) {
            case let (.circle(a, b, c, d), .circle(e, f, g, h)):
                XCTAssertEqual([a, b, c, d], [e, f, g, h], "region \(i)")
            case (.polygon, .polygon):
                polygons += 1
            default:
                XCTFail("region \(i): kinds differ")
            }
        }
        withExtendedLifetime((flat, reference)) {
            XCTAssertEqual(flat.vertices.elements.map(\.latRad), reference.vertices.elements.map(\.latRad))
            XCTAssertEqual(flat.vertices.elements.map(\.lonDeg), reference.vertices.elements.map(\.lonDeg))
            XCTAssertEqual(flat.chunks.elements.map(\.box), reference.chunks.elements.map(\.box))
            XCTAssertEqual(flat.chunks.elements.map { [$0.first, $0.end, $0.ringFirst, $0.ringEnd] },
                           reference.chunks.elements.map { [$0.first, $0.end, $0.ringFirst, $0.ringEnd] })
        }
        XCTAssertGreaterThan(polygons, 5_000)
        XCTAssertGreaterThan(regions.count, CompiledGeometry.parallelFrom, "large enough to be compiled in parallel chunks")
    }

    /// A large campaign set (its shapes read through the spatial order, its lookup built on
    /// another thread while the vertices are written) compiles to what the geometries put in
    /// that order and compiled one by one give: records, vertices, chunks, index, inside boxes.
    func testLargeCampaignSetCompilesAsItsGeometriesInSpatialOrder() {
        var rng = SplitMix64(seed: 31)
        let regions = RegionIndexTests.randomRegions(12_000, rng: &rng)
        let split = 7_000
        let a = Campaign(id: "a", regions: Array(regions[..<split]), rules: [], offers: [])
        let b = Campaign(id: "b", regions: Array(regions[split...]), rules: [], offers: [])
        let settings = Settings(tracking: Tracking(hysteresisM: 15))
        let crossing = CampaignCrossing(campaigns: [a, b], settings: settings)
        let (pa, pb) = (CrossingParameters(campaign: a, settings: settings), CrossingParameters(campaign: b, settings: settings))
        let shapes = regions.map(\.shape)
        let order = CampaignCrossing.spatialOrder(CompiledGeometry.bounds(of: shapes))
        XCTAssertNotEqual(order, Array(order.indices), "the order moves regions")
        let reference = CrossingCore(geometries: order.map { RegionGeometry(shapes[$0]) },
                                     hysteresisM: order.map { $0 < split ? pa.hysteresisM[$0] : pb.hysteresisM[$0 - split] },
                                     confirmMs: order.map { $0 < split ? pa.confirmMs[$0] : pb.confirmMs[$0 - split] },
                                     group: order.map { _ in 0 }, campaign: order.map { $0 < split ? 0 : 1 },
                                     localRegion: order.map { Int32($0 < split ? $0 : $0 - split) },
                                     groups: [CrossingCore.Group(maxAccuracyM: pa.maxAccuracyM, maxGapMs: pa.maxGapMs)], campaignCount: 2)
        let core = crossing.core
        func bytes<T>(_ buffer: FixedBuffer<T>) -> [UInt8] { Array(UnsafeRawBufferPointer(buffer.elements)) }
        func fields(_ r: CompiledRegions.Record) -> [Double] {
            [Double(r.method.rawValue), r.circle.isCircle ? 1 : 0, r.circle.latRad, r.circle.lonRad, r.circle.cosLat, r.circle.inBelow,
             r.circle.outAbove, r.radiusM, r.hysteresisM, Double(r.confirmMs), Double(r.chunkStart), Double(r.chunkEnd),
             Double(r.group), Double(r.campaign), Double(r.localRegion)]
        }
        withExtendedLifetime((core, reference)) {
            XCTAssertEqual(core.regions.records.count, regions.count)
            XCTAssertEqual(core.regions.records.elements.map(fields), reference.regions.records.elements.map(fields))
            XCTAssertEqual(bytes(core.regions.vertices), bytes(reference.regions.vertices))
            XCTAssertEqual(bytes(core.regions.chunks), bytes(reference.regions.chunks))
            XCTAssertEqual(bytes(core.insideBoxes), bytes(reference.insideBoxes))
            XCTAssertEqual(bytes(core.index.entryBoxes), bytes(reference.index.entryBoxes))
            XCTAssertEqual(bytes(core.index.owners), bytes(reference.index.owners))
            XCTAssertEqual(bytes(core.index.levels), bytes(reference.index.levels))
            XCTAssertEqual(bytes(core.index.slots), bytes(reference.index.slots))
            XCTAssertEqual(bytes(core.index.starts), bytes(reference.index.starts))
            XCTAssertEqual(bytes(core.index.items), bytes(reference.index.items))
            XCTAssertGreaterThan(core.index.items.count, regions.count)
        }
        XCTAssertGreaterThan(regions.count, CompiledGeometry.parallelFrom, "large enough for the lookup on another thread")
    }
}

/// The spatial compile order is a permutation that puts near regions near one another.
final class CrossingSpatialOrderTests: XCTestCase {
    func testSpatialOrderIsAPermutationGroupingNeighbours() {
        var rng = SplitMix64(seed: 8)
        let regions = RegionIndexTests.randomRegions(5_000, rng: &rng, around: Coordinate(lat: 37.7, lon: -121.8), spreadDeg: 1)
        let geometries = regions.map { RegionGeometry($0.shape) }
        let order = CampaignCrossing.spatialOrder(geometries.map(\.bounds))
        XCTAssertEqual(order.sorted(), Array(geometries.indices))
        func centre(_ i: Int) -> (Double, Double) {
            let b = geometries[i].bounds
            return ((b.minLat + b.maxLat) / 2, (b.minLon + b.maxLon) / 2)
        }
        func gap(_ a: Int, _ b: Int) -> Double {
            let (x, y) = (centre(a), centre(b))
            return abs(x.0 - y.0) + abs(x.1 - y.1)
        }
        let ordered = zip(order, order.dropFirst()).map { gap($0, $1) }.reduce(0, +)
        let original = zip(geometries.indices, geometries.indices.dropFirst()).map { gap($0, $1) }.reduce(0, +)
        XCTAssertLessThan(ordered * 10, original, "consecutive regions in compile order are close")
    }

    /// The order by packed integer keys (radix sorted) is the order by (key, index): boxes with
    /// many equal centres (ties), over the globe and within one city (whose keys share their
    /// high digits, so passes are skipped), compared with the comparison sort the same function
    /// falls back to.
    func testPackedSpatialOrderEqualsTheComparisonOrder() {
        var rng = SplitMix64(seed: 9)
        for trial in 0..<24 {
            let n = 1 + Int(rng.unit() * 3_000)
            let distinct = 1 + Int(rng.unit() * Double(trial % 2 == 0 ? 20 : n))
            let area = trial % 3 == 2 ? (lat: 47.0, lon: 8.0, dLat: 0.2, dLon: 0.3) : (lat: 0.0, lon: 0.0, dLat: 170.0, dLon: 350.0)
            let centres = (0..<distinct).map { _ in (lat: area.lat + (rng.unit() - 0.5) * area.dLat, lon: area.lon + (rng.unit() - 0.5) * area.dLon) }
            let boxes = (0..<n).map { _ -> BoundingBox in
                let c = centres[Int(rng.unit() * Double(distinct)) % distinct]
                return BoundingBox(minLat: c.lat - 0.01, maxLat: c.lat + 0.01, minLon: c.lon - 0.01, maxLon: c.lon + 0.01)
            }
            XCTAssertEqual(CampaignCrossing.spatialOrder(boxes), CampaignCrossing.spatialOrder(boxes, packedUpTo: 0), "trial \(trial)")
        }
    }
}

/// A fix outside a region's inside box is never IN, with any hysteresis (0 included, where a
/// boundary point within the 1 mm tolerance counts as IN), near the poles and the antimeridian.
final class CrossingInsideBoxTests: XCTestCase {
    func testNoFixOutsideTheInsideBoxIsIn() {
        var rng = SplitMix64(seed: 13)
        let regions = RegionIndexTests.randomRegions(600, rng: &rng)
        for h in [0.0, 0.0005, 20] {
            let geometries = regions.map { RegionGeometry($0.shape) }
            let n = geometries.count
            let core = CrossingCore(geometries: geometries, hysteresisM: Array(repeating: h, count: n), confirmMs: Array(repeating: 0, count: n),
                                    group: Array(repeating: 0, count: n), campaign: Array(repeating: 0, count: n),
                                    localRegion: (0..<n).map { Int32($0) }, groups: [CrossingCore.Group(maxAccuracyM: 100, maxGapMs: 1_000_000)],
                                    campaignCount: 1)
            var outsideAndIn = 0, inside = 0
            withExtendedLifetime(core) {
                let view = core.regions.view
                for r in 0..<n {
                    let b = geometries[r].bounds
                    for _ in 0..<40 {
                        // Points around the box, many just across its edges.
                        let edge = rng.next() % 2 == 0
                        let lat = edge ? (rng.next() % 2 == 0 ? b.minLat.nextDown : b.maxLat.nextUp) : b.minLat + (b.maxLat - b.minLat) * (rng.unit() * 1.4 - 0.2)
                        let lon = edge ? b.minLon + (b.maxLon - b.minLon) * rng.unit() : (rng.next() % 2 == 0 ? b.minLon.nextDown : b.maxLon.nextUp)
                        let p = (max(-90, min(90, lat)), max(-180, min(180, lon)))
                        let la = Earth.radians(p.0), lo = Earth.radians(p.1)
                        let c = view.classify(r, latDeg: p.0, lonDeg: p.1, latRad: la, lonRad: lo, cosLat: cos(la))
                        if c == .inside {
                            inside += 1
                            if !core.insideBoxes.elements[r].mayContain(lat: p.0, lon: p.1) { outsideAndIn += 1 }
                        }
                    }
                }
            }
            XCTAssertEqual(outsideAndIn, 0, "h \(h)")
            XCTAssertGreaterThan(inside, 100, "h \(h)")
        }
    }
}
