/// Validity checks of polygon rings in the (lon, lat) plane (formats.md 1.2): distinct points,
/// longitude span, self-intersection, holes inside their ring.
enum PolygonCheck {
    /// A ring with its repeated closing point and consecutive duplicates removed; `indices[k]` is
    /// the 0-based position of point k in the ring as written.
    struct Ring {
        var points: [Coordinate]
        var indices: [Int]
    }

    /// Where two edges cross: ring number (0 = outer) and edge number (edge k runs from point k
    /// to point k+1 of the normalized ring).
    struct Crossing: Equatable {
        var ringA: Int
        var edgeA: Int
        var ringB: Int
        var edgeB: Int
    }

    /// Strips the closing point (if the last equals the first) and consecutive duplicates.
    static func normalize(_ written: [Coordinate]) -> Ring {
        var pts: [Coordinate] = []
        var idx: [Int] = []
        pts.reserveCapacity(written.count)
        idx.reserveCapacity(written.count)
        for (i, p) in written.enumerated() where pts.last != p {
            pts.append(p)
            idx.append(i)
        }
        while pts.count > 1, pts.last == pts.first {
            pts.removeLast()
            idx.removeLast()
        }
        return Ring(points: pts, indices: idx)
    }

    /// The points of `normalize(written)`, without their indices.
    static func normalizedPoints(_ written: [Coordinate]) -> [Coordinate] {
        var pts: [Coordinate] = []
        pts.reserveCapacity(written.count)
        for p in written where pts.last != p { pts.append(p) }
        while pts.count > 1, pts.last == pts.first { pts.removeLast() }
        return pts
    }

    /// Number of distinct points, counted up to 3 (enough to tell a ring from a degenerate one)
    /// by a linear scan, without hashing: min(3, number of distinct points).
    static func distinctCountUpToThree(_ ring: [Coordinate]) -> Int {
        guard let a = ring.first else { return 0 }
        var second: Coordinate?
        for p in ring where p != a {
            guard let b = second else {
                second = p
                continue
            }
            if p != b { return 3 }
        }
        return second == nil ? 1 : 2
    }

    /// max(lon) - min(lon).
    static func lonSpan(_ ring: [Coordinate]) -> Double {
        guard var lo = ring.first?.lon else { return 0 }
        var hi = lo
        for p in ring {
            lo = min(lo, p.lon)
            hi = max(hi, p.lon)
        }
        return hi - lo
    }

    fileprivate static func orient(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Int {
        let v = (b.lon - a.lon) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lon - a.lon)
        return v > 0 ? 1 : (v < 0 ? -1 : 0)
    }

    private static func onSegment(_ a: Coordinate, _ b: Coordinate, _ p: Coordinate) -> Bool {
        min(a.lon, b.lon) <= p.lon && p.lon <= max(a.lon, b.lon) && min(a.lat, b.lat) <= p.lat && p.lat <= max(a.lat, b.lat)
    }

    /// Whether segments ab and cd share any point.
    static func segmentsIntersect(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate, _ d: Coordinate) -> Bool {
        let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
        if o1 != o2 && o3 != o4 && o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 { return true }
        if o1 == 0 && onSegment(a, b, c) { return true }
        if o2 == 0 && onSegment(a, b, d) { return true }
        if o3 == 0 && onSegment(c, d, a) { return true }
        if o4 == 0 && onSegment(c, d, b) { return true }
        return o1 * o2 < 0 && o3 * o4 < 0
    }

    /// The first pair of edges (in ring, then edge order) that cross or touch, other than
    /// neighbouring edges meeting at their shared point. Neighbours that double back on each
    /// other count as crossing.
    /// - Complexity: a sweep over edges sorted by longitude: O(n log n + k) for k pairs whose
    ///   longitude ranges overlap (O(n²) only for pathological shapes); rings of up to
    ///   `pairwiseUpTo` edges in all are checked pair by pair.
    static func firstCrossing(_ rings: [[Coordinate]], pairwiseUpTo: Int = 8) -> Crossing? {
        var total = 0
        for ring in rings where ring.count >= 2 { total += ring.count }
        // The edges and the sort keys live in scratch memory of the call (on the stack when
        // small), not in arrays: this runs once per polygon of every import.
        return withUnsafeTemporaryAllocation(of: Edge.self, capacity: max(1, total)) { edges in
            var n = 0
            for (r, ring) in rings.enumerated() where ring.count >= 2 {
                for k in 0..<ring.count {
                    let a = ring[k], b = ring[(k + 1) % ring.count]
                    (edges.baseAddress.unsafelyUnwrapped + n).initialize(to: Edge(ring: r, k: k, ringCount: ring.count, a: a, b: b))
                    n += 1
                }
            }
            defer { edges.baseAddress.unsafelyUnwrapped.deinitialize(count: n) }
            return firstCrossing(UnsafeBufferPointer(rebasing: edges[0..<n]), pairwiseUpTo: pairwiseUpTo)
        }
    }

    /// One edge of a ring: from point `k` to the next, with its box.
    private struct Edge {
        var ring: Int
        var k: Int
        /// Points of its ring.
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

        func overlaps(_ f: Edge) -> Bool {
            f.minLon <= maxLon && minLon <= f.maxLon && f.minLat <= maxLat && minLat <= f.maxLat
        }

        /// Whether this edge and a later one cross or touch (neighbours only if they double back).
        func crosses(_ f: Edge) -> Bool {
            if ring == f.ring {
                let n = ringCount
                let next = (k + 1) % n == f.k
                let prev = (f.k + 1) % n == k
                if next || prev {
                    // Neighbours share one point; they cross only if they double back.
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

    /// An edge in the sweep: its box and its number.
    private struct SweepKey {
        var minLon, maxLon, minLat, maxLat: Double
        var id: Int
    }

    private static func firstCrossing(_ edges: UnsafeBufferPointer<Edge>, pairwiseUpTo: Int) -> Crossing? {
        // Few edges (up to `pairwiseUpTo`): every pair whose boxes overlap, in order; the first
        // that crosses is the least.
        if edges.count <= pairwiseUpTo {
            for lo in 0..<edges.count {
                for hi in (lo + 1)..<max(lo + 1, edges.count) where edges[lo].overlaps(edges[hi]) && edges[lo].crosses(edges[hi]) {
                    return Crossing(ringA: edges[lo].ring, edgeA: edges[lo].k, ringB: edges[hi].ring, edgeB: edges[hi].k)
                }
            }
            return nil
        }
        // The sweep meets every pair whose boxes overlap, whatever the order of equal minima, and
        // keeps the least pair (by edge number) that crosses: the same pair as the loop above.
        // It sorts small keys (the box and the edge number), not the edges, so the scan reads
        // 40 contiguous bytes per edge and fetches an edge only for a pair whose boxes overlap.
        return withUnsafeTemporaryAllocation(of: SweepKey.self, capacity: edges.count) { keys in
            var k = keys
            for (id, e) in edges.enumerated() {
                (k.baseAddress.unsafelyUnwrapped + id).initialize(to: SweepKey(minLon: e.minLon, maxLon: e.maxLon, minLat: e.minLat, maxLat: e.maxLat, id: id))
            }
            defer { keys.baseAddress.unsafelyUnwrapped.deinitialize(count: edges.count) }
            // A ring's edges come in runs of rising and falling minima, which the (run-merging)
            // sort takes in about linear time. Up to `insertionSortUpTo` keys (a 32-gon has 32)
            // an insertion sort in place does it without the general sort's buffer and closure
            // calls; the sweep below finds the same pair whatever the order of equal minima.
            if k.count <= insertionSortUpTo {
                insertionSort(k)
            } else {
                k.sort { $0.minLon < $1.minLon }
            }
            var best: (Int, Int)?
            for x in 0..<k.count {
                let e = k[x]
                var y = x + 1
                while y < k.count {
                    let f = k[y]
                    if f.minLon > e.maxLon { break }
                    y += 1
                    if f.minLat > e.maxLat || f.maxLat < e.minLat { continue }
                    let lo = min(e.id, f.id), hi = max(e.id, f.id)
                    if let b = best, (lo, hi) >= b { continue }
                    if edges[lo].crosses(edges[hi]) { best = (lo, hi) }
                }
            }
            guard let (lo, hi) = best else { return nil }
            return Crossing(ringA: edges[lo].ring, edgeA: edges[lo].k, ringB: edges[hi].ring, edgeB: edges[hi].k)
        }
    }

    /// Key counts up to this are sorted by `insertionSort`.
    static let insertionSortUpTo = 64

    /// Sorts `keys` by `minLon`, stably, by insertion (O(n²) moves at worst, about linear on the
    /// runs of a ring's edges).
    private static func insertionSort(_ keys: UnsafeMutableBufferPointer<SweepKey>) {
        guard keys.count > 1, let base = keys.baseAddress else { return }
        for i in 1..<keys.count {
            let key = base[i]
            var j = i
            while j > 0, base[j - 1].minLon > key.minLon {
                base[j] = base[j - 1]
                j -= 1
            }
            if j != i { base[j] = key }
        }
    }

    /// Even-odd containment of `p` in `ring` (boundary points may go either way).
    static func contains(_ ring: [Coordinate], _ p: Coordinate) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.lat > p.lat) != (b.lat > p.lat) {
                let x = (b.lon - a.lon) * (p.lat - a.lat) / (b.lat - a.lat) + a.lon
                if p.lon < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Twice the signed area in the (lon, lat) plane: positive when counter-clockwise.
    static func signedArea2(_ ring: [Coordinate]) -> Double {
        var s = 0.0
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            s += a.lon * b.lat - b.lon * a.lat
        }
        return s
    }
}
