import Foundation

/// A region's geometry compiled for fast depth queries (semantics.md 1).
///
/// Circles: `d = radius - haversine(center, fix)`. Polygons (holes and MultiPolygon parts
/// included): even-odd containment over all rings in the (lon, lat) plane; `|d|` is the distance
/// to the nearest edge of any ring in the local equirectangular projection centred on the fix
/// (`x = R dlon cos(lat0)`, `y = R dlat`, radians); sign by containment.
///
/// Tolerance: a depth within `boundaryToleranceM` (1 mm) of zero is reported as exactly 0, the
/// boundary. The spec asks depths correct to 1 cm, so this never moves a fix across a threshold
/// that the spec's tests exercise.
public struct RegionGeometry: Sendable {
    /// The one geometric tolerance: |depth| at or under this (meters) is the boundary.
    public static let boundaryToleranceM = 0.001

    enum Kind: Sendable {
        case circle(latRad: Double, lonRad: Double, cosLat: Double, radiusM: Double)
        case polygon(Polygon)
    }

    /// Flat rings of a polygon: vertices (degrees) and edge chunks (see `EdgeChunk`)
    /// over the vertex indices.
    struct Polygon: Sendable {
        var vertices: [Vertex] = []
        /// Runs of up to `chunkSize` consecutive edges of one ring with their bounding box, so
        /// that a query can skip edges far from the fix.
        var chunks: [EdgeChunk] = []
    }

    /// One polygon vertex in degrees; its radians are computed when read, `Earth.radians` of
    /// the degrees, the very values that were stored beside them before (16 bytes a vertex,
    /// not 32: 51 MB less with 100k polygons of 32 vertices).
    struct Vertex: Sendable {
        var latDeg: Double
        var lonDeg: Double

        @inline(__always) var latRad: Double { Earth.radians(latDeg) }
        @inline(__always) var lonRad: Double { Earth.radians(lonDeg) }
    }

    /// Edges `prev(i) -> i` for vertices `i` in `first ..< end` of the ring `ringFirst ..< ringEnd`
    /// (`prev(ringFirst)` is `ringEnd - 1`), and the box of their endpoints in degrees.
    ///
    /// The vertex indices are stored in 32 bits (48 bytes a chunk, not 64: 6 MiB less with 100k
    /// polygons of 32 vertices), so one compiled set holds at most `Int32.max` vertices (32 GiB
    /// of vertices, far more than memory allows); they read as `Int`.
    struct EdgeChunk: Sendable {
        let box: BoundingBox
        private let first32: Int32
        private let end32: Int32
        private let ringFirst32: Int32
        private let ringEnd32: Int32

        @inline(__always) var first: Int { Int(first32) }
        @inline(__always) var end: Int { Int(end32) }
        @inline(__always) var ringFirst: Int { Int(ringFirst32) }
        @inline(__always) var ringEnd: Int { Int(ringEnd32) }

        /// A chunk; every index must fit in 32 bits (see the type's comment).
        init(first: Int, end: Int, ringFirst: Int, ringEnd: Int, box: BoundingBox) {
            self.box = box
            first32 = Int32(first)
            end32 = Int32(end)
            ringFirst32 = Int32(ringFirst)
            ringEnd32 = Int32(ringEnd)
        }

        /// The chunk with its vertex indices moved by `offset` (when vertex arrays are concatenated).
        func shifted(by offset: Int) -> EdgeChunk {
            EdgeChunk(first: first + offset, end: end + offset, ringFirst: ringFirst + offset, ringEnd: ringEnd + offset, box: box)
        }
    }

    /// Edges per chunk.
    static let chunkSize = 8

    let kind: Kind
    /// The region's own bounding box (no expansion), degrees.
    public let bounds: BoundingBox

    /// Compiles a region shape.
    public init(_ shape: Region.Shape) {
        bounds = RegionGeometry.bounds(of: shape)
        switch shape {
        case let .circle(center, radiusM):
            let lat = Earth.radians(center.lat)
            kind = .circle(latRad: lat, lonRad: Earth.radians(center.lon), cosLat: cos(lat), radiusM: radiusM)
        case let .polygon(parts):
            let (vertexCount, chunkCount) = RegionGeometry.polygonCounts(parts)
            var chunks: [EdgeChunk] = []
            let vertices = [Vertex](unsafeUninitializedCapacity: vertexCount) { v, n in
                chunks = [EdgeChunk](unsafeUninitializedCapacity: chunkCount) { c, m in
                    if let vb = v.baseAddress, let cb = c.baseAddress { RegionGeometry.writePolygon(parts, vertices: vb, base: 0, chunks: cb) }
                    m = chunkCount
                }
                n = vertexCount
            }
            kind = .polygon(Polygon(vertices: vertices, chunks: chunks))
        }
    }

    /// A compiled region given by its parts: a circle, or a polygon's bounds with its vertices and
    /// chunks kept elsewhere (`CompiledGeometry`, whose heads leave `Polygon` empty).
    init(kind: Kind, bounds: BoundingBox) {
        self.kind = kind
        self.bounds = bounds
    }

    /// The shape's own bounding box (no expansion), degrees.
    /// - Complexity: O(1) for circles, O(vertices) for polygons.
    static func bounds(of shape: Region.Shape) -> BoundingBox {
        switch shape {
        case let .circle(center, radiusM):
            return circleBox(center: center, meters: radiusM)
        case let .polygon(parts):
            var box = BoundingBox(minLat: .infinity, maxLat: -.infinity, minLon: .infinity, maxLon: -.infinity)
            for part in parts {
                for k in -1..<part.holes.count {
                    for c in k < 0 ? part.outer : part.holes[k] {
                        box.minLat = min(box.minLat, c.lat); box.maxLat = max(box.maxLat, c.lat)
                        box.minLon = min(box.minLon, c.lon); box.maxLon = max(box.maxLon, c.lon)
                    }
                }
            }
            return box
        }
    }

    /// How many vertices and edge chunks a polygon compiles to.
    /// - Complexity: O(rings).
    static func polygonCounts(_ parts: [Region.PolygonPart]) -> (vertices: Int, chunks: Int) {
        var vertices = 0, chunks = 0
        for part in parts {
            for k in -1..<part.holes.count {
                let n = k < 0 ? part.outer.count : part.holes[k].count
                vertices += n
                chunks += (n + chunkSize - 1) / chunkSize
            }
        }
        return (vertices, chunks)
    }

    /// Writes a polygon's vertices (`polygonCounts` of them) at `vertices` and its edge chunks at
    /// `chunks`, the chunks numbering the vertices from `base` (the index of `vertices[0]` in
    /// the buffer it is part of).
    /// - Complexity: O(vertices).
    static func writePolygon(_ parts: [Region.PolygonPart], vertices: UnsafeMutablePointer<Vertex>, base: Int,
                             chunks: UnsafeMutablePointer<EdgeChunk>) {
        var placed = 0, chunkCount = 0
        for part in parts {
            for k in -1..<part.holes.count {
                let ring = k < 0 ? part.outer : part.holes[k]
                if ring.isEmpty { continue }
                let rs = placed
                for c in ring {
                    (vertices + placed).initialize(to: Vertex(latDeg: c.lat, lonDeg: c.lon))
                    placed += 1
                }
                let re = placed
                var first = rs
                while first < re {
                    let end = min(first + chunkSize, re)
                    var b = BoundingBox(minLat: .infinity, maxLat: -.infinity, minLon: .infinity, maxLon: -.infinity)
                    var v = first == rs ? re - 1 : first - 1
                    var next = first
                    while true {
                        let c = vertices[v]
                        b.minLat = min(b.minLat, c.latDeg); b.maxLat = max(b.maxLat, c.latDeg)
                        b.minLon = min(b.minLon, c.lonDeg); b.maxLon = max(b.maxLon, c.lonDeg)
                        if next == end { break }
                        v = next
                        next += 1
                    }
                    (chunks + chunkCount).initialize(to: EdgeChunk(first: base + first, end: base + end, ringFirst: base + rs, ringEnd: base + re, box: b))
                    chunkCount += 1
                    first = end
                }
            }
        }
    }

    /// The box of all points within `meters` of a circle's center (haversine), exact on the sphere.
    static func circleBox(center: Coordinate, meters: Double) -> BoundingBox {
        let delta = max(0, meters) / Earth.radiusM
        let dLatDeg = delta * 180 / Double.pi
        let south = max(-90, center.lat - dLatDeg), north = min(90, center.lat + dLatDeg)
        let cosLat = cos(Earth.radians(center.lat))
        let s = sin(min(delta, Double.pi / 2))
        if delta >= Double.pi / 2 || south <= -90 || north >= 90 || s >= cosLat {
            return BoundingBox(minLat: south, maxLat: north, minLon: -180, maxLon: 180)
        }
        let dLonDeg = asin(s / cosLat) * 180 / Double.pi
        return BoundingBox(minLat: south, maxLat: north, minLon: center.lon - dLonDeg, maxLon: center.lon + dLonDeg)
    }

    /// The region's box grown so that every point with depth `> -meters` lies in it (before
    /// antimeridian wrapping; see `BoundingBox.wrappedParts`).
    public func bounds(expandedByMeters meters: Double) -> BoundingBox {
        switch kind {
        case let .circle(latRad, lonRad, _, radiusM):
            return RegionGeometry.circleBox(center: Coordinate(lat: latRad * 180 / Double.pi, lon: lonRad * 180 / Double.pi),
                                            meters: radiusM + meters)
        case .polygon:
            return bounds.expanded(byMeters: meters)
        }
    }

    /// Where a coordinate lies: side and signed depth.
    /// - Complexity: O(1) for circles, O(vertices) for polygons.
    public func placement(of c: Coordinate) -> Placement {
        let lat = Earth.radians(c.lat)
        return Placement(depthM: depth(latDeg: c.lat, lonDeg: c.lon, latRad: lat, lonRad: Earth.radians(c.lon), cosLat: cos(lat)))
    }

    /// Signed depth in meters of a point given in degrees and radians with its latitude cosine.
    /// - Complexity: O(1) for circles, O(vertices) for polygons.
    @inline(__always)
    func depth(latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> Double {
        let d: Double
        switch kind {
        case let .circle(cLat, cLon, cCos, radiusM):
            d = radiusM - Earth.distance(lat1: cLat, lon1: cLon, cosLat1: cCos, lat2: latRad, lon2: lonRad, cosLat2: cosLat)
        case let .polygon(p):
            d = RegionGeometry.polygonDepth(p, latDeg: latDeg, lonDeg: lonDeg, latRad: latRad, lonRad: lonRad, cosLat: cosLat)
        }
        return abs(d) <= RegionGeometry.boundaryToleranceM ? 0 : d
    }

    static func polygonDepth(_ p: Polygon, latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> Double {
        p.vertices.withUnsafeBufferPointer { v in
            p.chunks.withUnsafeBufferPointer { c in
                polygonDepth(vertices: v, chunks: c, latDeg: latDeg, lonDeg: lonDeg, latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            }
        }
    }

    /// Signed depth (unsnapped) of a point for the polygon made of `chunks` over `vertices`:
    /// even-odd containment in the (lon, lat) plane with a ray towards +lon, and the distance to
    /// the nearest edge in the local projection centred on the point.
    /// - Complexity: O(edges).
    @inline(__always)
    static func polygonDepth(vertices v: UnsafeBufferPointer<Vertex>, chunks: UnsafeBufferPointer<EdgeChunk>,
                             latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> Double {
        let r = Earth.radiusM
        let kx = r * cosLat
        var inside = false
        var best = Double.infinity
        for chunk in chunks {
            var i = chunk.first
            var j = i == chunk.ringFirst ? chunk.ringEnd - 1 : i - 1
            while i < chunk.end {
                let vi = v[i], vj = v[j]
                // Even-odd crossing test in the (lon, lat) plane, ray towards +lon.
                let yi = vi.latDeg, yj = vj.latDeg
                if (yi > latDeg) != (yj > latDeg) {
                    let xCross = vi.lonDeg + (latDeg - yi) / (yj - yi) * (vj.lonDeg - vi.lonDeg)
                    if lonDeg < xCross { inside.toggle() }
                }
                // Distance from the point (origin) to edge j-i in the local projection.
                let ax = (vj.lonRad - lonRad) * kx, ay = (vj.latRad - latRad) * r
                let bx = (vi.lonRad - lonRad) * kx, by = (vi.latRad - latRad) * r
                let ex = bx - ax, ey = by - ay
                let len2 = ex * ex + ey * ey
                var t = len2 > 0 ? -(ax * ex + ay * ey) / len2 : 0
                t = t < 0 ? 0 : (t > 1 ? 1 : t)
                let px = ax + t * ex, py = ay + t * ey
                let dist2 = px * px + py * py
                if dist2 < best { best = dist2 }
                j = i
                i += 1
            }
        }
        let dist = best.squareRoot()
        return inside ? dist : -dist
    }
}
