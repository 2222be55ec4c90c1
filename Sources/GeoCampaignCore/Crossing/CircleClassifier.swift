import Foundation

/// The fast path of semantics.md 2.1 for circles: the class of a fix from the haversine term
/// `a = sin^2(dlat/2) + cos(lat1) cos(lat2) sin^2(dlon/2)` against thresholds precomputed from
/// `r - h` and `r + h`, with no `asin` and no square root. IN when `a <= inBelow`
/// (distance <= r - h), OUT when `a >= outAbove` (distance >= r + h), else BAND.
struct CircleClassifier: Sendable {
    /// False for polygons and for hysteresis within the boundary tolerance: use depth instead.
    var isCircle: Bool
    var latRad: Double
    var lonRad: Double
    var cosLat: Double
    var inBelow: Double
    var outAbove: Double

    @inline(__always) func classify(latRad fLat: Double, lonRad fLon: Double, cosLat fCos: Double) -> FixClass {
        let sdlat = sin((fLat - latRad) * 0.5)
        let sdlon = sin((fLon - lonRad) * 0.5)
        let a = sdlat * sdlat + cosLat * fCos * sdlon * sdlon
        return a <= inBelow ? .inside : (a >= outAbove ? .outside : .band)
    }
}

extension RegionGeometry {
    /// A classifier for this region under hysteresis `h` (semantics.md 2.1): for circles with `h` above the
    /// tolerance it compares the haversine term directly with precomputed thresholds (no `asin`,
    /// no square root), which is the same class as `FixClass(depthM:hysteresisM:)` on `depth`.
    func circleClassifier(hysteresisM h: Double) -> CircleClassifier {
        guard case let .circle(lat, lon, cosLat, radiusM) = kind, h > RegionGeometry.boundaryToleranceM else {
            return CircleClassifier(isCircle: false, latRad: 0, lonRad: 0, cosLat: 0, inBelow: 0, outAbove: 0)
        }
        func term(_ meters: Double) -> Double {
            let half = meters / (2 * Earth.radiusM)
            if half < 0 { return -1 }
            if half >= Double.pi / 2 { return 2 }
            let s = sin(half)
            return s * s
        }
        return CircleClassifier(isCircle: true, latRad: lat, lonRad: lon, cosLat: cosLat,
                          inBelow: term(radiusM - h), outAbove: term(radiusM + h))
    }
}
