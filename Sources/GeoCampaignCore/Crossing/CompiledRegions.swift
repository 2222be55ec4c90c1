import Foundation

/// An engine's regions as its per-fix loop reads them: one plain record per region (how to
/// classify a fix, hysteresis, confirm) and every polygon's vertices and edge chunks in two
/// shared flat buffers. Nothing in it is reference counted per access (see `FixedBuffer`).
struct CompiledRegions: Sendable {
    /// How a fix is classified for one region.
    enum Method: UInt8, Sendable {
        /// The haversine term against precomputed thresholds (`CircleClassifier`).
        case circleTerm
        /// The polygon fast path with early BAND (`RegionGeometry.polygonClass`).
        case polygonClass
        /// The exact circle depth (hysteresis within the boundary tolerance).
        case circleDepth
        /// Containment, with the exact depth within 2 mm of an edge (`RegionGeometry.polygonContainmentClass`;
        /// hysteresis from 0 to the boundary tolerance).
        case polygonContainment
        /// The exact polygon depth (a negative hysteresis).
        case polygonDepth
    }

    /// One region's record.
    struct Record: Sendable {
        var method: Method
        var circle: CircleClassifier
        var radiusM: Double
        var hysteresisM: Double
        var confirmMs: Int64
        /// Polygons: `chunkStart ..< chunkEnd` in `chunks`.
        var chunkStart: Int
        var chunkEnd: Int
        /// The tracking group (same max_accuracy and max_gap) the region belongs to.
        var group: Int32
        /// The region's campaign, and its index in that campaign's regions.
        var campaign: Int32
        var localRegion: Int32
    }

    let records: FixedBuffer<Record>
    let vertices: FixedBuffer<RegionGeometry.Vertex>
    let chunks: FixedBuffer<RegionGeometry.EdgeChunk>

    /// The records of compiled geometry with the regions' resolved hysteresis and confirm,
    /// tracking group, campaign and index within the campaign (arrays as long as
    /// `compiled.heads`); the vertices and chunks are `compiled`'s buffers, not copied.
    /// - Complexity: O(regions).
    init(compiled: CompiledGeometry, classifiers: [CircleClassifier], hysteresisM: [Double], confirmMs: [Int64],
         group: [Int32], campaign: [Int32], localRegion: [Int32]) {
        // Written in place (no array copied into the buffer).
        self.records = FixedBuffer(count: compiled.heads.count) { out in
            for r in compiled.heads.indices {
                let h = hysteresisM[r]
                var record = Record(method: .circleTerm, circle: classifiers[r], radiusM: 0, hysteresisM: h,
                                    confirmMs: confirmMs[r], chunkStart: compiled.chunkOffsets[r], chunkEnd: compiled.chunkOffsets[r + 1],
                                    group: group[r], campaign: campaign[r], localRegion: localRegion[r])
                switch compiled.heads[r].kind {
                case let .circle(latRad, lonRad, cosLat, radiusM):
                    record.radiusM = radiusM
                    if !classifiers[r].isCircle {
                        record.method = .circleDepth
                        record.circle.latRad = latRad
                        record.circle.lonRad = lonRad
                        record.circle.cosLat = cosLat
                    }
                case .polygon:
                    record.method = h > RegionGeometry.boundaryToleranceM ? .polygonClass : (h >= 0 ? .polygonContainment : .polygonDepth)
                }
                (out.baseAddress.unsafelyUnwrapped + r).initialize(to: record)
            }
        }
        vertices = compiled.vertices
        chunks = compiled.chunks
    }

    /// Plain pointers for the per-fix loop; valid while `self` is alive.
    var view: View { View(records: records.elements, vertices: vertices.elements, chunks: chunks.elements) }

    /// The regions through plain pointers.
    struct View {
        let records: UnsafeBufferPointer<Record>
        let vertices: UnsafeBufferPointer<RegionGeometry.Vertex>
        let chunks: UnsafeBufferPointer<RegionGeometry.EdgeChunk>

        /// The class of a fix for region `r` when the region is a circle whose bounds decide it
        /// from bounds of the fix's latitude cosine (`CircleClassifier.classify(latRad:lonRad:cosLow:cosHigh:)`),
        /// else nil: then `classify(_:latDeg:lonDeg:latRad:lonRad:cosLat:)` with the exact
        /// cosine, which gives the same class whenever this one gives one.
        /// - Complexity: O(1).
        @inline(__always)
        func classify(_ r: Int, latRad: Double, lonRad: Double, cosLow: Double, cosHigh: Double) -> FixClass? {
            guard records[r].method == .circleTerm else { return nil }
            return records[r].circle.classify(latRad: latRad, lonRad: lonRad, cosLow: cosLow, cosHigh: cosHigh)
        }

        /// The class of a fix for region `r` (semantics.md 2.1): the same class as
        /// `FixClass(depthM: depth, hysteresisM: h)` with the depth snapped to the boundary tolerance.
        /// - Complexity: O(1) for circles, O(chunks + nearby edges) for polygons.
        @inline(__always)
        func classify(_ r: Int, latDeg: Double, lonDeg: Double, latRad: Double, lonRad: Double, cosLat: Double) -> FixClass {
            let rec = records[r]
            switch rec.method {
            case .circleTerm:
                return rec.circle.classify(latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            case .polygonClass:
                return RegionGeometry.polygonClass(vertices: vertices, chunks: UnsafeBufferPointer(rebasing: chunks[rec.chunkStart..<rec.chunkEnd]),
                                                   hysteresisM: rec.hysteresisM, latDeg: latDeg, lonDeg: lonDeg,
                                                   latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            case .polygonContainment:
                return RegionGeometry.polygonContainmentClass(vertices: vertices, chunks: UnsafeBufferPointer(rebasing: chunks[rec.chunkStart..<rec.chunkEnd]),
                                                              hysteresisM: rec.hysteresisM, latDeg: latDeg, lonDeg: lonDeg,
                                                              latRad: latRad, lonRad: lonRad, cosLat: cosLat)
            case .circleDepth:
                let c = rec.circle
                let d = rec.radiusM - Earth.distance(lat1: c.latRad, lon1: c.lonRad, cosLat1: c.cosLat, lat2: latRad, lon2: lonRad, cosLat2: cosLat)
                return FixClass(depthM: abs(d) <= RegionGeometry.boundaryToleranceM ? 0 : d, hysteresisM: rec.hysteresisM)
            case .polygonDepth:
                let d = RegionGeometry.polygonDepth(vertices: vertices, chunks: UnsafeBufferPointer(rebasing: chunks[rec.chunkStart..<rec.chunkEnd]),
                                                    latDeg: latDeg, lonDeg: lonDeg, latRad: latRad, lonRad: lonRad, cosLat: cosLat)
                return FixClass(depthM: abs(d) <= RegionGeometry.boundaryToleranceM ? 0 : d, hysteresisM: rec.hysteresisM)
            }
        }
    }
}

/// Regions' geometry compiled into two flat buffers, every polygon's vertices and every edge
/// chunk (with vertex indices into the one vertex buffer), each written once in its final place:
/// no per-region vertex or chunk arrays in between (100,000 polygons compiled to per-region
/// arrays and then copied held their vertices twice). Per region a head keeps what is not
/// vertices: a circle whole, a polygon's bounds (its `Polygon` left empty).
struct CompiledGeometry: Sendable {
    /// Per region: the circle, or the polygon's bounds with no vertices.
    let heads: [RegionGeometry]
    /// Region `r`'s chunks are `chunkOffsets[r] ..< chunkOffsets[r + 1]` (none for a circle).
    let chunkOffsets: [Int]
    let vertices: FixedBuffer<RegionGeometry.Vertex>
    let chunks: FixedBuffer<RegionGeometry.EdgeChunk>

    /// Regions fewer than this are compiled on one thread.
    static let parallelFrom = 8_192

    /// Compiles `shapes` whose own boxes are `bounds` (`RegionGeometry.bounds(of:)`), large sets
    /// in chunks on all cores; the same geometry as `RegionGeometry(shape)` region by region.
    /// - Complexity: O(total vertices), spread over the cores.
    init(shapes: [Region.Shape], bounds: [BoundingBox]) {
        let order = Array(shapes.indices)
        self.init(shapes: shapes, order: order, heads: Self.heads(of: shapes, order: order, bounds: bounds))
    }

    /// Compiles `shapes[order[k]]` as region `k`, whose head is `heads[k]` (`heads(of:order:bounds:)`),
    /// large sets in chunks on all cores: the shapes are read through `order`, not copied into
    /// it (a copy retains and releases every shape). The same geometry as
    /// `RegionGeometry(shapes[order[k]])` region by region. `alongside` runs once on the calling
    /// thread while the other cores write the vertices (then it writes them too): work that
    /// needs only the heads, such as the region index.
    ///
    /// The shapes are visited in their own order (each written at its place in `order`): their
    /// rings lie in the heap about in that order, as they were decoded, so they are read
    /// front to back; visited in `order` (a space-filling curve), nearly every ring was a cache
    /// and TLB miss, and the pass took about twice as long.
    /// - Complexity: O(total vertices), spread over the cores.
    init(shapes: [Region.Shape], order: [Int], heads: [RegionGeometry], alongside: () -> Void = {}) {
        let n = order.count
        // Where each shape goes: `place[i]` is the `k` with `order[k] == i`.
        var place = [Int](repeating: 0, count: n)
        for k in 0..<n { place[order[k]] = k }
        // Per region its counts at k + 1 (on all cores), then the running sums.
        var vertexOffsets = [Int](repeating: 0, count: n + 1)
        var chunkOffsets = [Int](repeating: 0, count: n + 1)
        shapes.withUnsafeBufferPointer { src in
            place.withUnsafeBufferPointer { place in
                vertexOffsets.withUnsafeMutableBufferPointer { vo in
                    chunkOffsets.withUnsafeMutableBufferPointer { co in
                        Self.inChunks(n) { range in
                            for i in range {
                                guard case let .polygon(parts) = src[i] else { continue }
                                let counts = RegionGeometry.polygonCounts(parts)
                                vo[place[i] + 1] = counts.vertices
                                co[place[i] + 1] = counts.chunks
                            }
                        }
                    }
                }
            }
        }
        for k in 0..<n {
            vertexOffsets[k + 1] += vertexOffsets[k]
            chunkOffsets[k + 1] += chunkOffsets[k]
        }
        var chunks: FixedBuffer<RegionGeometry.EdgeChunk>?
        vertices = FixedBuffer(count: vertexOffsets[n]) { vertexOut in
            chunks = FixedBuffer(count: chunkOffsets[n]) { chunkOut in
                shapes.withUnsafeBufferPointer { src in
                    place.withUnsafeBufferPointer { place in
                        let ranges = ChunkClaims(count: Self.chunkCount(n))
                        func write() {
                            while let r = ranges.next() {
                                for i in (n * r / ranges.count)..<(n * (r + 1) / ranges.count) {
                                    guard case let .polygon(parts) = src[i], let v = vertexOut.baseAddress, let c = chunkOut.baseAddress else { continue }
                                    let k = place[i]
                                    RegionGeometry.writePolygon(parts, vertices: v + vertexOffsets[k], base: vertexOffsets[k], chunks: c + chunkOffsets[k])
                                }
                            }
                        }
                        if ranges.count == 1 {
                            alongside()
                            write()
                        } else {
                            ChunkClaims.run(onCaller: { alongside(); write() }, others: write)
                        }
                    }
                }
            }
        }
        self.heads = heads
        self.chunkOffsets = chunkOffsets
        self.chunks = chunks ?? FixedBuffer([])
    }

    /// Per region `k`, the head of `shapes[order[k]]` whose own box is `bounds[k]`: a circle
    /// whole (`RegionGeometry(shape)`), a polygon's bounds with an empty `Polygon`. Large sets
    /// in chunks on all cores. The heads are all that the region index and the inside boxes
    /// need, so those can be built while the vertices are written.
    /// - Complexity: O(regions), spread over the cores.
    static func heads(of shapes: [Region.Shape], order: [Int], bounds: [BoundingBox]) -> [RegionGeometry] {
        HugePages.array(count: order.count) { out in
            shapes.withUnsafeBufferPointer { src in
                order.withUnsafeBufferPointer { order in
                    inChunks(order.count) { range in
                        for k in range {
                            let head: RegionGeometry
                            switch src[order[k]] {
                            case .circle: head = RegionGeometry(src[order[k]])
                            case .polygon: head = RegionGeometry(kind: .polygon(RegionGeometry.Polygon()), bounds: bounds[k])
                            }
                            (out.baseAddress.unsafelyUnwrapped + k).initialize(to: head)
                        }
                    }
                }
            }
        }
    }

    /// The flat buffers of geometries compiled one by one (their vertices and chunks copied once).
    /// - Complexity: O(total vertices).
    init(geometries: [RegionGeometry]) {
        var chunkOffsets = [0]
        chunkOffsets.reserveCapacity(geometries.count + 1)
        var vertexCount = 0
        for g in geometries {
            var c = 0
            if case let .polygon(p) = g.kind {
                vertexCount += p.vertices.count
                c = p.chunks.count
            }
            chunkOffsets.append(chunkOffsets[chunkOffsets.count - 1] + c)
        }
        var placed = 0
        vertices = FixedBuffer(count: vertexCount) { out in
            for g in geometries {
                guard case let .polygon(p) = g.kind else { continue }
                p.vertices.withUnsafeBufferPointer { v in
                    if let base = v.baseAddress { (out.baseAddress.unsafelyUnwrapped + placed).initialize(from: base, count: v.count) }
                }
                placed += p.vertices.count
            }
        }
        placed = 0
        var k = 0
        chunks = FixedBuffer(count: chunkOffsets[geometries.count]) { out in
            for g in geometries {
                guard case let .polygon(p) = g.kind else { continue }
                for c in p.chunks {
                    (out.baseAddress.unsafelyUnwrapped + k).initialize(to: c.shifted(by: placed))
                    k += 1
                }
                placed += p.vertices.count
            }
        }
        heads = geometries
        self.chunkOffsets = chunkOffsets
    }

    /// Each region's own box (`RegionGeometry.bounds(of:)`), large sets in chunks on all cores.
    /// - Complexity: O(total vertices), spread over the cores.
    static func bounds(of shapes: [Region.Shape]) -> [BoundingBox] {
        HugePages.array(count: shapes.count) { out in
            shapes.withUnsafeBufferPointer { src in
                inChunks(src.count) { range in
                    for r in range { (out.baseAddress.unsafelyUnwrapped + r).initialize(to: RegionGeometry.bounds(of: src[r])) }
                }
            }
        }
    }

    /// Into how many ranges `n` regions are cut: 1 below `parallelFrom`, else 8 per core (at most 64).
    static func chunkCount(_ n: Int) -> Int { n < parallelFrom ? 1 : min(64, ProcessInfo.processInfo.activeProcessorCount * 8) }

    /// Runs `body` over `0 ..< n` cut into ranges, on all cores when `n` reaches `parallelFrom`;
    /// `body` must only write what its range owns.
    static func inChunks(_ n: Int, _ body: (Range<Int>) -> Void) {
        let count = chunkCount(n)
        if count == 1 {
            body(0..<n)
            return
        }
        DispatchQueue.concurrentPerform(iterations: count) { k in body((n * k / count)..<(n * (k + 1) / count)) }
    }
}
