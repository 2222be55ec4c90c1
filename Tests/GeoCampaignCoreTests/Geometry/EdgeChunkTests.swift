import XCTest
@testable import GeoCampaignCore

/// The edge chunk's 32-bit vertex indices: 48 bytes a chunk, and every index reads back as given.
final class EdgeChunkTests: XCTestCase {
    func testChunkIs48BytesAndKeepsItsIndices() {
        XCTAssertEqual(MemoryLayout<RegionGeometry.EdgeChunk>.stride, 48)
        let box = BoundingBox(minLat: 1, maxLat: 2, minLon: 3, maxLon: 4)
        let big = Int(Int32.max)
        let c = RegionGeometry.EdgeChunk(first: big - 9, end: big - 1, ringFirst: 0, ringEnd: big, box: box)
        XCTAssertEqual([c.first, c.end, c.ringFirst, c.ringEnd], [big - 9, big - 1, 0, big])
        XCTAssertEqual(c.box, box)
        let s = RegionGeometry.EdgeChunk(first: 8, end: 16, ringFirst: 0, ringEnd: 20, box: box).shifted(by: 100)
        XCTAssertEqual([s.first, s.end, s.ringFirst, s.ringEnd], [108, 116, 100, 120])
    }

    /// Flat compiled geometry holds, region by region, the chunks `RegionGeometry(shape)` makes
    /// (moved by the region's first vertex), with holes and MultiPolygon parts.
    func testFlatChunksMatchPerRegionChunks() {
        var shapes: [Region.Shape] = []
        for k in 0..<40 {
            var parts: [Region.PolygonPart] = []
            for p in 0..<(1 + k % 3) {
                func ring(_ n: Int, _ r: Double) -> [Coordinate] {
                    (0..<n).map { i in
                        let a = Double(i) / Double(n) * 2 * Double.pi
                        return Coordinate(lat: 40 + Double(p) * 0.1 + r * sin(a), lon: -3 + Double(k) * 0.01 + r * cos(a))
                    }
                }
                let n = 3 + (k * 17 + p * 5) % 68
                parts.append(Region.PolygonPart(outer: ring(n, 0.01), holes: k % 2 == 0 ? [ring(5 + k % 7, 0.002)] : []))
            }
            shapes.append(k % 5 == 4 ? .circle(center: Coordinate(lat: 40, lon: -3), radiusM: 100) : .polygon(parts))
        }
        let compiled = CompiledGeometry(shapes: shapes, bounds: CompiledGeometry.bounds(of: shapes))
        var vertexBase = 0
        for (r, shape) in shapes.enumerated() {
            let single = RegionGeometry(shape)
            guard case let .polygon(p) = single.kind else {
                XCTAssertEqual(compiled.chunkOffsets[r], compiled.chunkOffsets[r + 1])
                continue
            }
            let flat = Array(compiled.chunks.elements[compiled.chunkOffsets[r]..<compiled.chunkOffsets[r + 1]])
            XCTAssertEqual(flat.count, p.chunks.count)
            for (a, b) in zip(flat, p.chunks) {
                XCTAssertEqual([a.first, a.end, a.ringFirst, a.ringEnd], [b.first + vertexBase, b.end + vertexBase, b.ringFirst + vertexBase, b.ringEnd + vertexBase])
                XCTAssertEqual(a.box, b.box)
            }
            for (i, v) in p.vertices.enumerated() {
                XCTAssertEqual(compiled.vertices.elements[vertexBase + i].latDeg, v.latDeg)
                XCTAssertEqual(compiled.vertices.elements[vertexBase + i].lonDeg, v.lonDeg)
            }
            vertexBase += p.vertices.count
        }
        XCTAssertEqual(vertexBase, compiled.vertices.count)
    }
}
