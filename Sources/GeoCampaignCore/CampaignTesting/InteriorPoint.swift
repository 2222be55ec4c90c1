/// A point well inside a region, for the stays and trips of campaign tests: a circle's center;
/// for a polygon (holes and MultiPolygon parts included) the deepest point of a grid search,
/// refined around the best candidate, so it lies as far from every edge as the search finds.
///
///     InteriorPoint.find(circle at (47.37, 8.54) r 150 m)   // (47.37, 8.54), depth 150 m
///     a square with a square hole in the middle              // a point in the ring around the hole
enum InteriorPoint {
    /// The point and its depth in meters (positive inside).
    /// - Complexity: O(vertices) per probe, a few hundred probes.
    static func find(_ region: Region) -> (Coordinate, Double) {
        let geometry = RegionGeometry(region.shape)
        if case let .circle(center, radius) = region.shape { return (center, radius) }
        let b = geometry.bounds
        func depth(_ c: Coordinate) -> Double { geometry.placement(of: c).depthM }
        var best = Coordinate(lat: (b.minLat + b.maxLat) / 2, lon: (b.minLon + b.maxLon) / 2)
        var bestDepth = depth(best)
        if case let .polygon(parts) = region.shape {
            for p in parts where !p.outer.isEmpty {
                let n = Double(p.outer.count)
                let c = Coordinate(lat: p.outer.reduce(0) { $0 + $1.lat } / n, lon: p.outer.reduce(0) { $0 + $1.lon } / n)
                let d = depth(c)
                if d > bestDepth { best = c; bestDepth = d }
            }
        }
        var stepLat = (b.maxLat - b.minLat) / 24, stepLon = (b.maxLon - b.minLon) / 24
        for i in 0...24 {
            for j in 0...24 {
                let c = Coordinate(lat: b.minLat + Double(i) * stepLat, lon: b.minLon + Double(j) * stepLon)
                let d = depth(c)
                if d > bestDepth { best = c; bestDepth = d }
            }
        }
        for _ in 0..<4 {
            let center = best
            for i in -4...4 {
                for j in -4...4 {
                    let c = Coordinate(lat: center.lat + Double(i) * stepLat / 4, lon: center.lon + Double(j) * stepLon / 4)
                    let d = depth(c)
                    if d > bestDepth { best = c; bestDepth = d }
                }
            }
            stepLat /= 4
            stepLon /= 4
        }
        return (best, bestDepth)
    }
}
