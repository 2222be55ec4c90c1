import Foundation

extension CrossingCore {
    /// One fix's angles as the classifiers take them, each computed when a region first needs it:
    /// the fix in radians with bounds of its latitude cosine (`LatitudeCosine`, which most circle
    /// classes need no more than), then the exact cosine, only for a region whose class the
    /// bounds do not decide.
    struct FixAngles {
        private(set) var latRad = 0.0
        private(set) var lonRad = 0.0
        private(set) var cosLow = 0.0
        private(set) var cosHigh = 0.0
        private var hasRadians = false
        private var hasCosine = false

        /// Computes the radians and the cosine's bounds (from `bounds`, the user's anchor) once.
        @inline(__always)
        mutating func radians(_ fix: Fix, _ bounds: inout LatitudeCosine) {
            if hasRadians { return }
            hasRadians = true
            latRad = Earth.radians(fix.lat)
            lonRad = Earth.radians(fix.lon)
            (cosLow, cosHigh, hasCosine) = bounds.bounds(latRad)
        }

        /// The exact cosine of the latitude (`cos(latRad)`, as the classifiers compute it), once;
        /// `radians` must have been called.
        @inline(__always)
        mutating func cosine() -> Double {
            if !hasCosine {
                hasCosine = true
                cosLow = cos(latRad)
                cosHigh = cosLow
            }
            return cosLow
        }
    }
}
