import Foundation

extension RegionGeometry {
    /// The class of a fix for a polygon under hysteresis `h` (semantics.md 2.1) without computing
    /// the exact depth: BAND as soon as one edge lies within `h` of the fix (in the local
    /// projection of semantics.md 1), else IN or OUT by even-odd containment. Edge chunks whose
    /// box is farther than `h` are skipped for the distance, and chunks that cannot cross the ray
    /// are skipped for containment, so large imported polygons cost far less than a full scan.
    /// Equals `FixClass(depthM: depth, hysteresisM: h)` for `h` above the boundary tolerance;
    /// returns nil for circles and for smaller `h` (use the depth then).
    /// - Complexity: O(chunks + edges near the fix or crossing its ray).
    func polygonClass(hysteresisM h: Double, latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> FixClass? {
        guard case let .polygon(p) = kind, h > RegionGeometry.boundaryToleranceM else { return nil }
        return p.vertices.withUnsafeBufferPointer { v in
            p.chunks.withUnsafeBufferPointer { c in
                RegionGeometry.polygonClass(vertices: v, chunks: c, hysteresisM: h, latDeg: latDeg, lonDeg: lonDeg,
                                            latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            }
        }
    }

    /// The polygon fast path over `chunks` of `vertices` (see the instance method); `h` must be
    /// above the boundary tolerance.
    /// - Complexity: O(chunks + edges near the fix or crossing its ray).
    @inline(__always)
    static func polygonClass(vertices v: UnsafeBufferPointer<Vertex>, chunks: UnsafeBufferPointer<EdgeChunk>, hysteresisM h: Double,
                             latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> FixClass {
        let r = Earth.radiusM
        let kx = r * cosLat
        let h2 = h * h
        // Degrees beyond which an edge's projected coordinates are all farther than h (with slack).
        let dLat = h / r * (180 / Double.pi) * 1.000001 + 1e-12
        let dLon = cosLat > 1e-9 ? dLat / cosLat : Double.infinity
        var inside = false
        for chunk in chunks {
            let b = chunk.box
            let near = latDeg >= b.minLat - dLat && latDeg <= b.maxLat + dLat
                && lonDeg >= b.minLon - dLon && lonDeg <= b.maxLon + dLon
            let crosses = latDeg >= b.minLat && latDeg < b.maxLat && lonDeg <= b.maxLon
            if !near && !crosses { continue }
            var i = chunk.first
            var j = i == chunk.ringFirst ? chunk.ringEnd - 1 : i - 1
            while i < chunk.end {
                let vi = v[i], vj = v[j]
                if crosses {
                    let yi = vi.latDeg, yj = vj.latDeg
                    if (yi > latDeg) != (yj > latDeg) {
                        let xCross = vi.lonDeg + (latDeg - yi) / (yj - yi) * (vj.lonDeg - vi.lonDeg)
                        if lonDeg < xCross { inside.toggle() }
                    }
                }
                // The edge lies in the box of its ends: farther than h from it, it cannot be within h.
                if near && !(min(vi.latDeg, vj.latDeg) > latDeg + dLat || max(vi.latDeg, vj.latDeg) < latDeg - dLat
                             || min(vi.lonDeg, vj.lonDeg) > lonDeg + dLon || max(vi.lonDeg, vj.lonDeg) < lonDeg - dLon) {
                    let ax = (vj.lonRad - lonRad) * kx, ay = (vj.latRad - latRad) * r
                    let bx = (vi.lonRad - lonRad) * kx, by = (vi.latRad - latRad) * r
                    let ex = bx - ax, ey = by - ay
                    let len2 = ex * ex + ey * ey
                    var t = len2 > 0 ? -(ax * ex + ay * ey) / len2 : 0
                    t = t < 0 ? 0 : (t > 1 ? 1 : t)
                    let px = ax + t * ex, py = ay + t * ey
                    if px * px + py * py < h2 { return .band }
                }
                j = i
                i += 1
            }
        }
        return inside ? .inside : .outside
    }
}

extension RegionGeometry {
    /// Within this distance (meters) of a polygon edge, the containment path (`polygonContainmentClass`)
    /// computes the exact depth: twice the boundary tolerance, so every fix the snapping can move
    /// is decided by the exact code.
    static let exactNearM = 2 * boundaryToleranceM

    /// The class of a fix for a polygon under a hysteresis `h` at most the boundary tolerance
    /// (`hysteresis: 0m`: SQL-like containment), without the exact depth unless the fix lies within
    /// `exactNearM` of an edge: the fast path at `exactNearM` answers BAND there (then the exact
    /// depth decides), else containment decides. Equals `FixClass(depthM: depth, hysteresisM: h)`
    /// with the depth snapped to the boundary tolerance, for `0 <= h <= boundaryToleranceM`.
    ///
    /// Why it is exact: when the fast path does not answer BAND, every edge is at least
    /// `exactNearM` from the fix (its skips are proved: a chunk or edge is skipped for the distance
    /// only when its box lies farther than that in both projected axes), so the exact depth is
    /// `+-dist` with `dist >= 2 mm`: beyond the tolerance, it is not snapped, and `d >= h` when
    /// inside, `d <= -h` when outside. Its even-odd test runs the exact path's code on the same
    /// edges except those of chunks it skips for the ray: a chunk whose latitudes do not straddle
    /// the fix's has no edge that toggles (the straddle test is an exact comparison), and one that
    /// lies west of the fix could toggle only if rounding put a crossing east of the chunk's box,
    /// a few units in the last place, which would put the fix within nanometres of that edge,
    /// hence BAND.
    /// - Complexity: O(chunks + edges near the fix or crossing its ray); O(edges) within 2 mm of an edge.
    @inline(__always)
    static func polygonContainmentClass(vertices v: UnsafeBufferPointer<Vertex>, chunks: UnsafeBufferPointer<EdgeChunk>, hysteresisM h: Double,
                                        latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> FixClass {
        switch polygonClass(vertices: v, chunks: chunks, hysteresisM: exactNearM, latDeg: latDeg, lonDeg: lonDeg,
                            latRad: latRad, lonRad: lonRad, cosLat: cosLat) {
        case .inside: return .inside
        case .outside: return .outside
        case .band:
            let d = polygonDepth(vertices: v, chunks: chunks, latDeg: latDeg, lonDeg: lonDeg, latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            return FixClass(depthM: abs(d) <= boundaryToleranceM ? 0 : d, hysteresisM: h)
        }
    }

    /// The containment path for this polygon (see the static method); nil for circles and for `h`
    /// outside `0 ... boundaryToleranceM`.
    /// - Complexity: as the static method.
    func polygonContainmentClass(hysteresisM h: Double, latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> FixClass? {
        guard case let .polygon(p) = kind, h >= 0, h <= RegionGeometry.boundaryToleranceM else { return nil }
        return p.vertices.withUnsafeBufferPointer { v in
            p.chunks.withUnsafeBufferPointer { c in
                RegionGeometry.polygonContainmentClass(vertices: v, chunks: c, hysteresisM: h, latDeg: latDeg, lonDeg: lonDeg,
                                                       latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            }
        }
    }
}
