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

    /// The class of a fix, exactly as `exactClass` gives it, mostly without calling `sin`: for
    /// half-differences `u` of at most `approximateBelow` radians (a fix within about 60 km),
    /// `sin(u)^2` lies in `[u^2 (1 - u^2/3), u^2]`, so the term lies between bounds computed with
    /// `u^2`; when both bounds fall on the same side of each threshold (with a margin far above
    /// the rounding of either computation) that side is the answer, and only a fix within a
    /// relative 1e-8 of a threshold pays for the exact term.
    @inline(__always) func classify(latRad fLat: Double, lonRad fLon: Double, cosLat fCos: Double) -> FixClass {
        let hLat = (fLat - latRad) * 0.5
        let hLon = (fLon - lonRad) * 0.5
        let m = max(abs(hLat), abs(hLon))
        if m <= CircleClassifier.approximateBelow {
            let squares = hLat * hLat + cosLat * fCos * hLon * hLon
            let upper = squares * (1 + CircleClassifier.slack)
            let lower = squares * (1 - m * m / 3 - CircleClassifier.slack)
            if upper < inBelow { return .inside }
            if lower > outAbove { return .outside }
            if lower > inBelow && upper < outAbove { return .band }
        }
        return exactClass(hLat: hLat, hLon: hLon, cosLat: fCos)
    }

    /// `classify(latRad:lonRad:cosLat:)` when the fix's latitude cosine is known only to lie in
    /// `cosLow ... cosHigh` (`LatitudeCosine`): the class it gives when the bounds decide it, else
    /// nil (then classify with the exact cosine). The same class: each step of the bounds'
    /// computation is monotone in the cosine (the centre's cosine is not negative, `hLon` enters
    /// squared, and rounding is monotone), so the values computed from `cosLow` and `cosHigh`
    /// bracket those computed from any cosine between them, and a test both brackets pass is
    /// passed by the exact one, whose earlier tests fail (`lower <= upper`, `inBelow <= outAbove`).
    @inline(__always) func classify(latRad fLat: Double, lonRad fLon: Double, cosLow: Double, cosHigh: Double) -> FixClass? {
        let hLat = (fLat - latRad) * 0.5
        let hLon = (fLon - lonRad) * 0.5
        let m = max(abs(hLat), abs(hLon))
        guard m <= CircleClassifier.approximateBelow else { return nil }
        let upper = (hLat * hLat + cosLat * cosHigh * hLon * hLon) * (1 + CircleClassifier.slack)
        let lower = (hLat * hLat + cosLat * cosLow * hLon * hLon) * (1 - m * m / 3 - CircleClassifier.slack)
        if upper < inBelow { return .inside }
        if lower > outAbove { return .outside }
        if lower > inBelow && upper < outAbove { return .band }
        return nil
    }

    /// The class from the haversine term itself, with the half-differences of latitude and
    /// longitude in radians: IN when the term is at most `inBelow`, OUT when at least
    /// `outAbove`, else BAND.
    @inline(__always) func exactClass(hLat: Double, hLon: Double, cosLat fCos: Double) -> FixClass {
        let sdlat = sin(hLat)
        let sdlon = sin(hLon)
        let a = sdlat * sdlat + cosLat * fCos * sdlon * sdlon
        return a <= inBelow ? .inside : (a >= outAbove ? .outside : .band)
    }

    /// Largest half-difference (radians) for which `classify` tries the bounds first.
    static let approximateBelow = 0.005
    /// Relative margin of the bounds over the rounding of the computed terms (each within a few
    /// units in the last place, about 1e-15).
    static let slack = 1e-12
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
