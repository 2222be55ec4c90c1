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

    /// The points of `normalize(written)` and the least and greatest longitude among them
    /// (0 and 0 for no points), in one pass over the points as written.
    static func normalizedPointsAndLonRange(_ written: [Coordinate]) -> (points: [Coordinate], lo: Double, hi: Double) {
        written.withUnsafeBufferPointer { from in
            var points = BufferPoints(buffer: from)
            let ring = normalizedRing(count: from.count, &points)
            return ring.map { ($0.points, $0.lo, $0.hi) } ?? ([], 0, 0)
        }
    }

    /// Points given one at a time: those of a ring as written (`normalizedRing`).
    protocol RingPoints {
        /// The next point, or nil when the next item is not a point.
        mutating func next() -> Coordinate?
    }

    /// The points of a buffer, in order.
    struct BufferPoints: RingPoints {
        let buffer: UnsafeBufferPointer<Coordinate>
        var k = 0

        @inline(__always) mutating func next() -> Coordinate? {
            k += 1
            return buffer[k - 1]
        }
    }

    /// The ring of `count` points as written, given one by one by `points` (when an item is not
    /// a point, the result is nil), normalized as `normalize` does, with the least and greatest
    /// longitude among its points (0 and 0 for no points) and whether every point as written
    /// lies within latitudes -90...90 and longitudes -180...180 (NaN does not): in one pass,
    /// straight into the ring's storage (`normalizedPointsAndLonRange` of the points).
    @inline(__always)
    static func normalizedRing<Points: RingPoints>(count: Int, _ points: inout Points) -> (points: [Coordinate], lo: Double, hi: Double, inRange: Bool)? {
        var lo = 0.0, hi = 0.0, inRange = true, complete = true
        let ring = [Coordinate](unsafeUninitializedCapacity: count) { to, written in
            written = 0
            guard count > 0, let out = to.baseAddress else { return }
            guard var last = points.next() else {
                complete = false
                return
            }
            out.initialize(to: last)
            var n = 1
            lo = last.lon
            hi = lo
            var within = (-90.0...90.0).contains(last.lat) && (-180.0...180.0).contains(last.lon)
            for _ in 1..<count {
                guard let p = points.next() else {
                    complete = false
                    return
                }
                within = within && (-90.0...90.0).contains(p.lat) && (-180.0...180.0).contains(p.lon)
                if p == last { continue }
                (out + n).initialize(to: p)
                n += 1
                last = p
                lo = min(lo, p.lon)
                hi = max(hi, p.lon)
            }
            // The closing points (those equal to the first) are not in the ring; their
            // longitude is the first's.
            while n > 1, out[n - 1] == out[0] { n -= 1 }
            written = n
            inRange = within
        }
        return complete ? (ring, lo, hi, inRange) : nil
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

    static func orient(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Int {
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
    /// other count as crossing. Only pairs whose boxes overlap (closed intervals) are tested.
    /// - Complexity: a sweep over edges sorted by longitude: O(n log n + k) for k pairs whose
    ///   longitude ranges overlap (O(n²) only for pathological shapes); rings of up to
    ///   `pairwiseUpTo` edges in all are checked pair by pair.
    /// - Parameter scratch: memory for the edges reused from call to call (on one thread), else
    ///   memory of the call.
    static func firstCrossing(_ rings: [[Coordinate]], pairwiseUpTo: Int = 8, scratch: Scratch? = nil) -> Crossing? {
        var total = 0
        for ring in rings where ring.count >= 2 { total += ring.count }
        guard total > 0 else { return nil }
        if rings.count == 1, isStarAroundMean(rings[0]) { return nil }
        // The edges live in scratch memory (the caller's, or the call's: on the stack when
        // small), not in arrays: this runs once per polygon of every import.
        if let scratch {
            return firstCrossing(rings, total: total, pairwiseUpTo: pairwiseUpTo,
                                 in: scratch.memory(MemoryLayout<Edge>.stride * total).bindMemory(to: Edge.self, capacity: total))
        }
        return withUnsafeTemporaryAllocation(of: Edge.self, capacity: total) { buffer in
            firstCrossing(rings, total: total, pairwiseUpTo: pairwiseUpTo, in: buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    /// Whether `ring` is, in exact arithmetic, star-shaped around the mean of its points: seen
    /// from that point `p`, every edge turns the same way by less than half a turn, and the
    /// edges together go round exactly once. Then the points lie at strictly rising angles
    /// around `p` over one turn, so every ray from `p` meets the ring once: no two edges cross
    /// or touch (other than neighbours at their shared point) and no neighbours double back, and
    /// `firstCrossing` is nil. Most rings of real and generated data (convex ones, and the
    /// bench's jittered 32-gons) pass, in O(n) against the sweep's O(n log n) and its edges'
    /// memory: the sweep was about a tenth of loading 100k polygons.
    ///
    /// Each turn's sign is trusted only when the computed value exceeds a bound on its
    /// rounding error (Shewchuk's `ccwerrboundA`, 3.3e-16 times the sum of the products'
    /// magnitudes, taken as 1e-15, and at least the least normal double, below which
    /// products underflow): then its sign is the exact one. The winding count compares
    /// latitudes only (exact). A ring that fails (a point at `p`, a turn the rounding cannot
    /// tell, a reflex part hiding a point from `p`, a ring wound twice, NaN) is left to the sweep.
    ///
    /// The sweep's own predicates are rounded: it can report a crossing that this exact test
    /// rules out only when some orientation it computes is within rounding of zero (an edge's
    /// end within about 1e-15 of another edge's line, relative to their lengths), which no
    /// corpus of `PolygonCheckReferenceTests` produced; see docs/campaign-format.md.
    static func isStarAroundMean(_ ring: [Coordinate]) -> Bool {
        let n = ring.count
        guard n >= 3 else { return false }
        return ring.withUnsafeBufferPointer { pts in
            var sumLat = 0.0, sumLon = 0.0
            for q in pts {
                sumLat += q.lat
                sumLon += q.lon
            }
            let pLat = sumLat / Double(n), pLon = sumLon / Double(n)
            // The first edge's turn gives the direction; every edge must turn the same way.
            var prev = pts[n - 1]
            var dLat = prev.lat - pLat, dLon = prev.lon - pLon
            var sign = 0.0
            var upward = 0, downward = 0
            for q in pts {
                let eLat = q.lat - pLat, eLon = q.lon - pLon
                let l = dLon * eLat, r = dLat * eLon
                let det = l - r
                // (Not below the least normal double: products that underflow lose the
                // relative accuracy the bound assumes, but never more than 2^-1074 each.)
                let bound = max(1e-15 * (abs(l) + abs(r)), Double.leastNormalMagnitude)
                if sign == 0 { sign = det > 0 ? 1 : -1 }
                // (NaN fails this: every comparison with it is false.)
                guard sign * det > bound else { return false }
                // Crossings of the line through p at p's latitude: an edge turning
                // counterclockwise crosses it upward only east of p, one turning clockwise
                // downward only east of p; half-open, so a point on the line counts once.
                if prev.lat < pLat && q.lat >= pLat { upward += 1 }
                if prev.lat >= pLat && q.lat < pLat { downward += 1 }
                prev = q
                dLat = eLat
                dLon = eLon
            }
            return (sign > 0 ? upward : downward) == 1
        }
    }

    /// `firstCrossing` with room for the `total` edges at `edges`.
    private static func firstCrossing(_ rings: [[Coordinate]], total: Int, pairwiseUpTo: Int, in edges: UnsafeMutablePointer<Edge>) -> Crossing? {
        var n = 0
        for ring in rings where ring.count >= 2 {
            ring.withUnsafeBufferPointer { pts in
                let first = n, last = n + pts.count - 1
                for k in 0..<pts.count {
                    let a = pts[k], b = pts[k == pts.count - 1 ? 0 : k + 1]
                    (edges + n).initialize(to: Edge(a: a, b: b, next: n == last ? first : n + 1))
                    n += 1
                }
            }
        }
        defer { edges.deinitialize(count: n) }
        let found = n <= pairwiseUpTo
            ? firstCrossingPairwise(UnsafeBufferPointer(start: edges, count: n))
            : firstCrossingSwept(UnsafeBufferPointer(start: edges, count: n))
        guard let (lo, hi) = found else { return nil }
        let (ringA, edgeA) = ringAndEdge(lo, rings), (ringB, edgeB) = ringAndEdge(hi, rings)
        return Crossing(ringA: ringA, edgeA: edgeA, ringB: ringB, edgeB: edgeB)
    }

    /// The ring and edge number of edge `id` in the order `firstCrossing` numbers them (rings
    /// of fewer than 2 points have no edges).
    private static func ringAndEdge(_ id: Int, _ rings: [[Coordinate]]) -> (Int, Int) {
        var first = 0
        for (r, ring) in rings.enumerated() where ring.count >= 2 {
            if id < first + ring.count { return (r, id - first) }
            first += ring.count
        }
        preconditionFailure("edge \(id) out of range")
    }

    /// One edge: from point `a` to the start of edge `next` (the next edge of its ring), with
    /// its box.
    private struct Edge {
        var minLon, maxLon, minLat, maxLat: Double
        var a: Coordinate
        var next: Int

        init(a: Coordinate, b: Coordinate, next: Int) {
            minLon = min(a.lon, b.lon)
            maxLon = max(a.lon, b.lon)
            minLat = min(a.lat, b.lat)
            maxLat = max(a.lat, b.lat)
            self.a = a
            self.next = next
        }

        func overlaps(_ f: Edge) -> Bool {
            f.minLon <= maxLon && minLon <= f.maxLon && f.minLat <= maxLat && minLat <= f.maxLat
        }
    }

    /// Whether edge `lo` and a later edge `hi` cross or touch (neighbours only if they double
    /// back).
    @inline(__always)
    private static func crosses(_ edges: UnsafeBufferPointer<Edge>, _ lo: Int, _ hi: Int) -> Bool {
        let e = edges[lo], f = edges[hi]
        let b = edges[e.next].a, d = edges[f.next].a
        let next = e.next == hi, prev = f.next == lo
        if next || prev {
            // Neighbours share one point; they cross only if they double back (never in a ring
            // of 2 points, whose two edges are each other's next).
            if next && prev { return false }
            let (p, shared, q) = next ? (e.a, b, d) : (f.a, d, b)
            guard orient(p, shared, q) == 0 else { return false }
            let dot = (p.lon - shared.lon) * (q.lon - shared.lon) + (p.lat - shared.lat) * (q.lat - shared.lat)
            return dot > 0
        }
        return segmentsIntersect(e.a, b, f.a, d)
    }

    /// Every pair whose boxes overlap, in order; the first that crosses is the least.
    private static func firstCrossingPairwise(_ edges: UnsafeBufferPointer<Edge>) -> (Int, Int)? {
        for lo in 0..<edges.count {
            for hi in (lo + 1)..<max(lo + 1, edges.count) where edges[lo].overlaps(edges[hi]) && crosses(edges, lo, hi) {
                return (lo, hi)
            }
        }
        return nil
    }

    /// A key that orders as `x` does (-0 as +0; no NaN): the bits of a double made unsigned.
    @inline(__always)
    private static func orderKey(_ x: Double) -> UInt64 {
        let bits = (x + 0.0).bitPattern
        return bits ^ (UInt64(bitPattern: Int64(bitPattern: bits) >> 63) | (1 << 63))
    }

    /// The sweep: it meets every pair whose boxes overlap and keeps the least pair (by edge
    /// number) that crosses, the same pair as the loop pair by pair. It sorts one word per edge:
    /// the order key of its least longitude with its low bits replaced by the edge's number.
    /// The keys are then in the order of the longitudes rounded down (the order among those
    /// equal after rounding is the edge numbers'), so the scan from an edge stops at the first
    /// key whose rounded longitude exceeds the edge's rounded greatest longitude: every later
    /// edge starts east of it. The boxes of the pairs met are compared exactly.
    private static func firstCrossingSwept(_ edges: UnsafeBufferPointer<Edge>) -> (Int, Int)? {
        let n = edges.count
        let idBits = UInt64.bitWidth - UInt64(n - 1).leadingZeroBitCount
        let idMask: UInt64 = idBits == 64 ? .max : (1 << idBits) - 1
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * n) { buffer in
            let keys = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
            for id in 0..<n {
                keys.initializeElement(at: id, to: orderKey(edges[id].minLon) & ~idMask | UInt64(id))
            }
            let sorted = sortKeys(keys, scratch: UnsafeMutableBufferPointer(rebasing: buffer[n..<(2 * n)]))
            var best = (Int.max, Int.max)
            for x in 0..<n {
                let i = Int(truncatingIfNeeded: sorted[x] & idMask), e = edges[i]
                let limit = orderKey(e.maxLon) | idMask
                var y = x + 1
                while y < n {
                    let key = sorted[y]
                    if key > limit { break }
                    y += 1
                    let j = Int(truncatingIfNeeded: key & idMask), f = edges[j]
                    if f.minLat > e.maxLat || f.maxLat < e.minLat || f.minLon > e.maxLon || e.minLon > f.maxLon { continue }
                    let lo = min(i, j), hi = max(i, j)
                    if (lo, hi) >= best { continue }
                    if crosses(edges, lo, hi) { best = (lo, hi) }
                }
            }
            return best.0 == .max ? nil : best
        }
    }

    /// Sorts distinct `keys` ascending, using `scratch` (as many, uninitialized); returns the
    /// buffer that holds them sorted (`keys` or `scratch`; a trivial type, nothing to free).
    /// A natural merge sort: the strictly falling runs are reversed, then neighbouring rising
    /// runs are merged pass by pass. A ring's edges come in a few runs of rising and falling
    /// longitudes (a star-shaped ring in about three), so it takes about linear time there, and
    /// O(n log n) on any input.
    static func sortKeys(_ keys: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>) -> UnsafeMutableBufferPointer<UInt64> {
        let n = keys.count
        guard n > 1 else { return keys }
        var i = 0
        while i + 1 < n {
            guard keys[i + 1] < keys[i] else {
                i += 1
                continue
            }
            var j = i + 1
            while j + 1 < n && keys[j + 1] < keys[j] { j += 1 }
            var lo = i, hi = j
            while lo < hi {
                keys.swapAt(lo, hi)
                lo += 1
                hi -= 1
            }
            i = j + 1
        }
        var src = keys, dst = scratch
        while true {
            var start = 0
            while start < n {
                var mid = start + 1
                while mid < n && src[mid] > src[mid - 1] { mid += 1 }
                if start == 0 && mid == n { return src }
                var end = mid
                if mid < n {
                    end += 1
                    while end < n && src[end] > src[end - 1] { end += 1 }
                }
                var a = start, b = mid, out = start
                while a < mid && b < end {
                    let x = src[a], y = src[b]
                    if x < y {
                        dst[out] = x
                        a += 1
                    } else {
                        dst[out] = y
                        b += 1
                    }
                    out += 1
                }
                while a < mid {
                    dst[out] = src[a]
                    a += 1
                    out += 1
                }
                while b < end {
                    dst[out] = src[b]
                    b += 1
                    out += 1
                }
                start = end
            }
            swap(&src, &dst)
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
