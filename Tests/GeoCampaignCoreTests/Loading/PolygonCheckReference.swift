@testable import GeoCampaignCore

/// The ring check as it was before the eighth loading pass (s9-polycheck), kept as the reference
/// the new one must agree with exactly: the same first crossing (the same pair of edges) and the
/// same problems for every ring. `variant` breaks it on purpose, for the negative controls. The
/// tests of one pair of segments (`PolygonCheck.orient`, `segmentsIntersect`) are unchanged and
/// shared; what changed, and is kept here as it was, is which pairs are tested, in which order,
/// and the rings' normalization and longitude span.
enum ReferencePolygonCheck {
    enum Variant {
        case exact
        /// The last crossing pair instead of the first.
        case lastPair
        /// Boxes that only touch are not tested (so rings touching at a point are missed).
        case strictBoxes
    }

    static func normalizedPoints(_ written: [Coordinate]) -> [Coordinate] {
        var pts: [Coordinate] = []
        pts.reserveCapacity(written.count)
        for p in written where pts.last != p { pts.append(p) }
        while pts.count > 1, pts.last == pts.first { pts.removeLast() }
        return pts
    }

    static func lonSpan(_ ring: [Coordinate]) -> Double {
        guard var lo = ring.first?.lon else { return 0 }
        var hi = lo
        for p in ring {
            lo = min(lo, p.lon)
            hi = max(hi, p.lon)
        }
        return hi - lo
    }

    private struct Edge {
        var ring: Int
        var k: Int
        var ringCount: Int
        var a: Coordinate
        var b: Coordinate
        var minLon, maxLon, minLat, maxLat: Double

        init(ring: Int, k: Int, ringCount: Int, a: Coordinate, b: Coordinate) {
            self.ring = ring
            self.k = k
            self.ringCount = ringCount
            self.a = a
            self.b = b
            minLon = min(a.lon, b.lon)
            maxLon = max(a.lon, b.lon)
            minLat = min(a.lat, b.lat)
            maxLat = max(a.lat, b.lat)
        }

        func overlaps(_ f: Edge, strict: Bool) -> Bool {
            if strict { return f.minLon < maxLon && minLon < f.maxLon && f.minLat < maxLat && minLat < f.maxLat }
            return f.minLon <= maxLon && minLon <= f.maxLon && f.minLat <= maxLat && minLat <= f.maxLat
        }

        func crosses(_ f: Edge) -> Bool {
            if ring == f.ring {
                let n = ringCount
                let next = (k + 1) % n == f.k
                let prev = (f.k + 1) % n == k
                if next || prev {
                    if n <= 2 { return false }
                    let (p, shared, q) = next ? (a, b, f.b) : (f.a, f.b, b)
                    guard PolygonCheck.orient(p, shared, q) == 0 else { return false }
                    let dot = (p.lon - shared.lon) * (q.lon - shared.lon) + (p.lat - shared.lat) * (q.lat - shared.lat)
                    return dot > 0
                }
            }
            return PolygonCheck.segmentsIntersect(a, b, f.a, f.b)
        }
    }

    /// The first pair of edges that cross, pair by pair (the old sweep found the same pair:
    /// `testSweepAgreesWithPairwiseOnRandomRings` checked it against this loop).
    static func firstCrossing(_ rings: [[Coordinate]], variant: Variant = .exact) -> PolygonCheck.Crossing? {
        var edges: [Edge] = []
        for (r, ring) in rings.enumerated() where ring.count >= 2 {
            for k in 0..<ring.count {
                edges.append(Edge(ring: r, k: k, ringCount: ring.count, a: ring[k], b: ring[(k + 1) % ring.count]))
            }
        }
        var found: PolygonCheck.Crossing?
        for lo in edges.indices {
            for hi in edges.indices where hi > lo && edges[lo].overlaps(edges[hi], strict: variant == .strictBoxes) && edges[lo].crosses(edges[hi]) {
                found = PolygonCheck.Crossing(ringA: edges[lo].ring, edgeA: edges[lo].k, ringB: edges[hi].ring, edgeB: edges[hi].k)
                if variant != .lastPair { return found }
            }
        }
        return found
    }

    /// The old `PolygonCheck.check`: problems and normalized rings.
    static func check(_ written: [[Coordinate]], variant: Variant = .exact) -> (problems: [PolygonCheck.Problem], normalized: [[Coordinate]]) {
        var out: [PolygonCheck.Problem] = []
        let points = written.map(normalizedPoints)
        var ok = true
        for (i, r) in points.enumerated() {
            let n = PolygonCheck.distinctCountUpToThree(r)
            if n < 3 {
                out.append(.tooFewPoints(ring: i, distinct: n))
                ok = false
            }
        }
        let span = points.first.map(lonSpan) ?? 0
        if span > 180 {
            out.append(.tooWide(degrees: span))
            ok = false
        }
        guard ok else { return (out, points) }
        if let c = firstCrossing(points, variant: variant) {
            let ra = PolygonCheck.normalize(written[c.ringA]).indices, rb = PolygonCheck.normalize(written[c.ringB]).indices
            out.append(.crossing(ringA: c.ringA, fromA: ra[c.edgeA], toA: ra[(c.edgeA + 1) % ra.count],
                                 ringB: c.ringB, fromB: rb[c.edgeB], toB: rb[(c.edgeB + 1) % rb.count]))
            return (out, points)
        }
        for h in points.indices.dropFirst() {
            if let p = points[h].first, !PolygonCheck.contains(points[0], p), let at = PolygonCheck.normalize(written[h]).indices.first {
                out.append(.holeOutside(hole: h, point: at))
            }
        }
        return (out, points)
    }
}
