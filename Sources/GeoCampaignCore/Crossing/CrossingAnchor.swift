import Foundation

/// A box around one fix of a user (the anchor) inside which every fix gets the same candidate
/// regions from the index, in the same order, and the same pass-1 code (`CrossingCore.CandidateCode`
/// or class) for each of them: pass 1 of the crossing loop then copies the anchor's candidates
/// and codes instead of probing the index and classifying again. A user who stays somewhere
/// reports fixes metres apart; most of them fall in the box.
///
/// A fix Q reuses the anchor P when Q is used by the same tracking groups (so the same
/// candidates are skipped as unused), `|Q.lat - P.lat| < marginLat`, `|Q.lon - P.lon| < marginLon`
/// (degrees) and `R (a + (cos P.lat + a) b) < marginM` with `a`, `b` the latitude and longitude
/// differences in radians. Why the codes are the same:
///
/// 1. Candidates. The index returns, on each level, the items of the point's cell whose float
///    box may hold the point, finest level first and in entry order (`RegionIndex.Probe`); a
///    box is listed in every cell it reaches, so the result is the set of entries whose float
///    box holds the point, in an order fixed by the entries alone. The anchor's box lies within
///    a window of `windowM` around it; every box listed in a cell the window reaches (the
///    window grown by twice the slack, so that the cells of every admitted fix are among them)
///    constrains it: a point that moves less than its distance to every edge line of a box it
///    lies in stays in it, and one that lies outside a box by `v` on one axis and moves less
///    than `v` on that axis stays outside. A box listed in no such cell holds no point of the
///    window. So an admitted fix lies in the same float boxes as the anchor: the same entries,
///    in the same order.
/// 2. Inside boxes. The same rule for each candidate's `insideBoxes` entry: Q is outside it
///    (code `notIn`) exactly when P is.
/// 3. Classes. A polygon classified by its cell grid keeps its class while the grid decides the
///    same way (`PolygonCellGrids.View.decidedMargins`). A circle classified from the haversine
///    term (`CompiledRegions.Method.circleTerm`) is IN when the distance to its centre is at
///    most `r - h`, OUT when at least `r + h` (the term is compared with thresholds computed
///    from those distances; its rounding is far below a micrometre). The distance from the
///    centre to Q differs from that to P by at most the distance PQ (triangle inequality), and
///    PQ is at most the path along P's meridian to Q's latitude and then along Q's parallel,
///    `R (a + cos(Q.lat) b)`, with `cos(Q.lat) <= cos(P.lat) + a`. So the class is the same when
///    PQ is below the distance from P's distance to the nearer of `r - h`, `r + h`. Any other
///    class (a MIXED grid cell, the exact polygon path, a depth at a hysteresis within the
///    boundary tolerance) makes no box: the fix is probed again.
///
/// Slack: every margin in degrees is cut by `slackDeg` (1e-9 degree, 0.1 mm), far above the
/// rounding of the coordinates' differences and sums (a few units in the last place of numbers
/// up to 360, under 1e-13 degree); the margin in metres by `slackM` (1 mm), far above the
/// rounding of the distances (nanometres). A margin of zero or less admits no fix.
struct CrossingAnchor {
    var lat = 0.0, lon = 0.0, cosLat = 0.0
    var marginLat = -1.0, marginLon = -1.0, marginM = Double.infinity
    /// The tracking groups that use the anchor fix, one bit each.
    var groupMask: UInt64 = 0
    /// The anchor's candidates and codes: `start ..< end` in pass 1's buffers.
    var start = 0, end = 0

    /// No anchor: admits no fix.
    static let none = CrossingAnchor()

    static let slackDeg = 1e-9
    static let slackM = 0.001
    /// Half the side of the window (metres) whose index cells an anchor looks at: a fix farther
    /// from the anchor could meet boxes listed elsewhere.
    static let windowM = 25.0

    /// Whether a fix at (lat, lon) used by the groups in `mask` gets the anchor's candidates and codes.
    /// - Complexity: O(1).
    @inline(__always)
    func admits(lat fLat: Double, lon fLon: Double, mask: UInt64) -> Bool {
        guard mask == groupMask else { return false }
        let dLat = abs(fLat - lat), dLon = abs(fLon - lon)
        guard dLat < marginLat && dLon < marginLon else { return false }
        if marginM == .infinity { return true }
        let a = dLat * (Double.pi / 180), b = dLon * (Double.pi / 180)
        return Earth.radiusM * (a + (cosLat + a) * b) < marginM
    }

    /// Keeps the box within `(dLat, dLon)` degrees of the anchor, less the slack.
    @inline(__always)
    mutating func limit(lat dLat: Double, lon dLon: Double) {
        marginLat = min(marginLat, dLat - CrossingAnchor.slackDeg)
        marginLon = min(marginLon, dLon - CrossingAnchor.slackDeg)
    }

    /// Keeps a box the anchor lies in (`RegionIndex.FloatBox.mayContain`) holding every fix
    /// the anchor admits, or one the anchor lies outside of not holding any (point 1).
    @inline(__always)
    mutating func limit(box b: RegionIndex.FloatBox) {
        let loLat = lat - Double(b.minLat), hiLat = Double(b.maxLat) - lat
        let loLon = lon - Double(b.minLon), hiLon = Double(b.maxLon) - lon
        if loLat >= 0 && hiLat >= 0 && loLon >= 0 && hiLon >= 0 {
            limit(lat: min(loLat, hiLat), lon: min(loLon, hiLon))
            return
        }
        // Outside: stay outside on the axis where the anchor lies farther out (in metres).
        let outLat = max(-loLat, -hiLat), outLon = max(-loLon, -hiLon)
        if outLat >= outLon * cosLat { limit(lat: outLat, lon: .infinity) } else { limit(lat: .infinity, lon: outLon) }
    }

    /// The box around fix `fix` (used by the groups in `mask`) whose candidates and codes are
    /// `near[start ..< end]` and `codes[start ..< end]`, as pass 1 found them (see the type's
    /// comment). `factor` scales every margin: 1 except in the tests that show that larger
    /// margins give wrong classes.
    /// - Complexity: O(index levels + items in the fix's cells + candidates).
    static func around(_ fix: Fix, mask: UInt64, start: Int, end: Int, near: ScratchBuffer<Int32>, codes: ScratchBuffer<UInt8>,
                       probe: RegionIndex.Probe, regions: CompiledRegions.View, cells: PolygonCellGrids.View,
                       insideBoxes: UnsafeBufferPointer<RegionIndex.FloatBox>, factor: Double) -> CrossingAnchor {
        let latRad = Earth.radians(fix.lat), lonRad = Earth.radians(fix.lon)
        var a = CrossingAnchor(lat: fix.lat, lon: fix.lon, cosLat: cos(latRad), marginLat: .infinity, marginLon: .infinity,
                               marginM: .infinity, groupMask: mask, start: start, end: end)
        // Point 1: the window, and every box listed in a cell the window reaches.
        let wLat = windowM / Earth.radiusM * (180 / Double.pi)
        guard a.cosLat > 0.01, abs(fix.lat) + 2 * wLat < 90, abs(fix.lon) + 2 * wLat / a.cosLat < 180 else { return .none }
        let wLon = wLat / a.cosLat
        a.limit(lat: wLat, lon: wLon)
        let reach = 2 * slackDeg
        for l in 0..<probe.levels.count {
            probe.forEachCell(level: l, minLat: fix.lat - wLat - reach, maxLat: fix.lat + wLat + reach,
                              minLon: fix.lon - wLon - reach, maxLon: fix.lon + wLon + reach) { first, last in
                for k in first..<last { a.limit(box: probe.floatBoxes[Int(probe.items[k].entry)]) }
            }
        }
        for n in start..<end {
            let code = codes[n]
            if code == CrossingCore.CandidateCode.unused { continue }
            let r = Int(near[n])
            a.limit(box: insideBoxes[r])
            if code == CrossingCore.CandidateCode.notIn { continue }
            if let m = cells.decidedMargins(r, latDeg: fix.lat, lonDeg: fix.lon) {
                a.limit(lat: m.lat, lon: m.lon)
                continue
            }
            let rec = regions.records[r]
            guard rec.method == .circleTerm else { return .none }
            let c = rec.circle
            let d = Earth.distance(lat1: c.latRad, lon1: c.lonRad, cosLat1: c.cosLat, lat2: latRad, lon2: lonRad, cosLat2: a.cosLat)
            a.marginM = min(a.marginM, min(abs(d - (rec.radiusM - rec.hysteresisM)), abs(d - (rec.radiusM + rec.hysteresisM))) - slackM)
        }
        a.marginLat *= factor
        a.marginLon *= factor
        if a.marginM != .infinity { a.marginM *= factor }
        return a
    }
}
