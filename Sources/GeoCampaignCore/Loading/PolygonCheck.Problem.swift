extension PolygonCheck {
    /// One thing wrong with a polygon part. Ring 0 is the outer ring, ring k the k-th hole;
    /// point numbers are 0-based positions in the ring as written.
    enum Problem {
        case tooFewPoints(ring: Int, distinct: Int)
        case tooWide(degrees: Double)
        case crossing(ringA: Int, fromA: Int, toA: Int, ringB: Int, fromB: Int, toB: Int)
        case holeOutside(hole: Int, point: Int)

        /// The problem in words; `subject` names the polygon ("the polygon", "feature 3 ('x')").
        func message(subject: String, place: String = "") -> String {
            func ring(_ r: Int) -> String { r == 0 ? "the outline" : "hole \(r)" }
            switch self {
            case .tooFewPoints(let r, let n):
                let which = r == 0 ? subject : "hole \(r) of \(subject)"
                return "\(which) has \(n) different point\(n == 1 ? "" : "s"): a ring needs at least 3 different points"
            case .tooWide(let deg):
                return "\(subject) spans \(ValueParser.fmt((deg * 10).rounded() / 10)) degrees of longitude, more than the 180 allowed: split it into two regions at the 180th meridian"
            case .crossing(let ra, let fa, let ta, let rb, let fb, let tb):
                if ra == rb {
                    let who = ra == 0 ? subject : "hole \(ra) of \(subject)"
                    // Reversing the points between the two edges undoes this crossing (2-opt).
                    let fix = fb - ta == 1 ? "swap points \(ta + 1) and \(fb + 1)" : "put the points in order around the shape"
                    return "\(who) crosses itself\(place): the edge from point \(fa + 1) to point \(ta + 1) crosses the edge from point \(fb + 1) to point \(tb + 1); \(fix)"
                }
                return "hole \(rb) of \(subject) crosses \(ring(ra))\(place): the edge from point \(fb + 1) to point \(tb + 1) of hole \(rb) crosses the edge from point \(fa + 1) to point \(ta + 1) of \(ring(ra)); a hole must lie inside the outline"
            case .holeOutside(let h, let p):
                return "point \(p + 1) of hole \(h) lies outside the outline of \(subject): a hole must lie inside the polygon it is cut from"
            }
        }
    }

    /// All problems of one polygon part given as written (closing points optional). The outer
    /// ring's problems come first; crossings are searched only among rings with 3+ distinct points.
    static func problems(outer: [Coordinate], holes: [[Coordinate]]) -> [Problem] {
        check([outer] + holes).problems
    }

    /// The problems of one polygon part whose rings (outer first, then holes) are given as
    /// written, and the rings normalized (see `normalize`), each ring normalized once.
    /// - Parameter scratch: memory reused from call to call on one thread (`firstCrossing`).
    static func check(_ written: [[Coordinate]], scratch: Scratch? = nil) -> (problems: [Problem], normalized: [[Coordinate]]) {
        var points: [[Coordinate]] = []
        points.reserveCapacity(written.count)
        var span = 0.0
        for (i, ring) in written.enumerated() {
            let (r, lo, hi) = normalizedPointsAndLonRange(ring)
            if i == 0 { span = hi - lo }
            points.append(r)
        }
        return (check(normalized: points, outerLonSpan: span, written: { written }, scratch: scratch), points)
    }

    /// The problems of one polygon part from its rings normalized (outer first, then holes:
    /// `normalizedRing`) and the outline's longitude span (its greatest longitude less its
    /// least), as `check(_:scratch:)` finds them. `written` gives the rings as written; it is
    /// called only when a crossing or a hole outside is found, for the places it names.
    static func check(normalized points: [[Coordinate]], outerLonSpan span: Double, written: () -> [[Coordinate]],
                      scratch: Scratch? = nil) -> [Problem] {
        var out: [Problem] = []
        var ok = true
        for (i, r) in points.enumerated() {
            let n = distinctCountUpToThree(r)
            if n < 3 {
                out.append(.tooFewPoints(ring: i, distinct: n))
                ok = false
            }
        }
        if span > 180 {
            out.append(.tooWide(degrees: span))
            ok = false
        }
        guard ok else { return out }
        // Positions as written are only needed to report a problem.
        if let c = firstCrossing(points, scratch: scratch) {
            let rings = written()
            let ra = normalize(rings[c.ringA]).indices, rb = normalize(rings[c.ringB]).indices
            out.append(.crossing(ringA: c.ringA, fromA: ra[c.edgeA], toA: ra[(c.edgeA + 1) % ra.count],
                                 ringB: c.ringB, fromB: rb[c.edgeB], toB: rb[(c.edgeB + 1) % rb.count]))
            return out
        }
        // No ring touches another, so each hole lies wholly inside or wholly outside the outline:
        // one point tells.
        for h in points.indices.dropFirst() {
            if let p = points[h].first, !contains(points[0], p), let at = normalize(written()[h]).indices.first {
                out.append(.holeOutside(hole: h, point: at))
            }
        }
        return out
    }
}
