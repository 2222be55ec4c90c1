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
        let r = Earth.radiusM
        let kx = r * cosLat
        let h2 = h * h
        // Degrees beyond which an edge's projected coordinates are all farther than h (with slack).
        let dLat = h / r * (180 / Double.pi) * 1.000001 + 1e-12
        let dLon = cosLat > 1e-9 ? dLat / cosLat : Double.infinity
        var inside = false
        return p.latDeg.withUnsafeBufferPointer { la in
        p.lonDeg.withUnsafeBufferPointer { lo in
        p.latRad.withUnsafeBufferPointer { laR in
        p.lonRad.withUnsafeBufferPointer { loR in
            for chunk in p.chunks {
                let b = chunk.box
                let near = latDeg >= b.minLat - dLat && latDeg <= b.maxLat + dLat
                    && lonDeg >= b.minLon - dLon && lonDeg <= b.maxLon + dLon
                let crosses = latDeg >= b.minLat && latDeg < b.maxLat && lonDeg <= b.maxLon
                if !near && !crosses { continue }
                var i = chunk.first
                var j = i == chunk.ringFirst ? chunk.ringEnd - 1 : i - 1
                while i < chunk.end {
                    if crosses {
                        let yi = la[i], yj = la[j]
                        if (yi > latDeg) != (yj > latDeg) {
                            let xCross = lo[i] + (latDeg - yi) / (yj - yi) * (lo[j] - lo[i])
                            if lonDeg < xCross { inside.toggle() }
                        }
                    }
                    if near {
                        let ax = (loR[j] - lonRad) * kx, ay = (laR[j] - latRad) * r
                        let bx = (loR[i] - lonRad) * kx, by = (laR[i] - latRad) * r
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
        }}}}
    }
}
