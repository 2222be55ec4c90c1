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

    /// Flattens compiled geometries with their resolved hysteresis and confirm, tracking group,
    /// campaign and index within the campaign (all arrays of equal length).
    /// - Complexity: O(total vertices).
    init(geometries: [RegionGeometry], classifiers: [CircleClassifier], hysteresisM: [Double], confirmMs: [Int64],
         group: [Int32], campaign: [Int32], localRegion: [Int32]) {
        // The vertices are copied once, into their final place: growing an array by appends and
        // then copying it copied them several times and touched fresh pages for every copy (a
        // tenth of a 10k-polygon run's page faults).
        var vertexCount = 0, chunkCount = 0
        for g in geometries {
            if case let .polygon(p) = g.kind {
                vertexCount += p.vertices.count
                chunkCount += p.chunks.count
            }
        }
        var records: [Record] = []
        records.reserveCapacity(geometries.count)
        var placed = 0
        self.vertices = FixedBuffer(count: vertexCount) { out in
            for g in geometries {
                guard case let .polygon(p) = g.kind else { continue }
                p.vertices.withUnsafeBufferPointer { v in
                    if let base = v.baseAddress { (out.baseAddress.unsafelyUnwrapped + placed).initialize(from: base, count: v.count) }
                }
                placed += p.vertices.count
            }
        }
        var chunks: [RegionGeometry.EdgeChunk] = []
        chunks.reserveCapacity(chunkCount)
        var offset = 0
        for (r, g) in geometries.enumerated() {
            let h = hysteresisM[r]
            var record = Record(method: .circleTerm, circle: classifiers[r], radiusM: 0, hysteresisM: h,
                                confirmMs: confirmMs[r], chunkStart: chunks.count, chunkEnd: chunks.count,
                                group: group[r], campaign: campaign[r], localRegion: localRegion[r])
            switch g.kind {
            case let .circle(latRad, lonRad, cosLat, radiusM):
                record.radiusM = radiusM
                if !classifiers[r].isCircle {
                    record.method = .circleDepth
                    record.circle.latRad = latRad
                    record.circle.lonRad = lonRad
                    record.circle.cosLat = cosLat
                }
            case let .polygon(p):
                for c in p.chunks { chunks.append(c.shifted(by: offset)) }
                offset += p.vertices.count
                record.chunkEnd = chunks.count
                record.method = h > RegionGeometry.boundaryToleranceM ? .polygonClass : (h >= 0 ? .polygonContainment : .polygonDepth)
            }
            records.append(record)
        }
        self.records = FixedBuffer(records)
        self.chunks = FixedBuffer(chunks)
    }

    /// Plain pointers for the per-fix loop; valid while `self` is alive.
    var view: View { View(records: records.elements, vertices: vertices.elements, chunks: chunks.elements) }

    /// The regions through plain pointers.
    struct View {
        let records: UnsafeBufferPointer<Record>
        let vertices: UnsafeBufferPointer<RegionGeometry.Vertex>
        let chunks: UnsafeBufferPointer<RegionGeometry.EdgeChunk>

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
