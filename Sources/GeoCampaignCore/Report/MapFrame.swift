import Foundation

/// The rectangle of the report's map in projected (Web Mercator) meters, and the conversion of
/// coordinates to SVG user units: meters east and south of the frame's north-west corner.
public struct MapFrame: Sendable, Equatable {
    /// West edge, projected meters.
    public var minX: Double
    /// North edge, projected meters.
    public var maxY: Double
    /// Width, projected meters (> 0).
    public var width: Double
    /// Height, projected meters (> 0).
    public var height: Double

    /// The frame around `points` (projected), with a margin of 5% (at least 50 m) on each side;
    /// a 2 km square around (0, 0) when there are none.
    public init(points: [(x: Double, y: Double)]) {
        guard let first = points.first else {
            self.init(minX: -1000, maxY: 1000, width: 2000, height: 2000)
            return
        }
        var lo = first, hi = first
        for p in points {
            lo = (min(lo.x, p.x), min(lo.y, p.y))
            hi = (max(hi.x, p.x), max(hi.y, p.y))
        }
        let margin = max(50, 0.05 * max(hi.x - lo.x, hi.y - lo.y))
        self.init(minX: lo.x - margin, maxY: hi.y + margin, width: hi.x - lo.x + 2 * margin, height: hi.y - lo.y + 2 * margin)
    }

    /// Creates a frame from its edges.
    public init(minX: Double, maxY: Double, width: Double, height: Double) {
        self.minX = minX
        self.maxY = maxY
        self.width = width
        self.height = height
    }

    /// The SVG point of coordinate `c`.
    public func point(_ c: Coordinate) -> (x: Double, y: Double) {
        let p = WebMercator.project(c)
        return (p.x - minX, maxY - p.y)
    }

    /// The SVG `viewBox` attribute of the frame.
    public var viewBox: String { "0 0 \(Self.fmt(width)) \(Self.fmt(height))" }

    /// A length in SVG units with one decimal (10 cm of projected map), shortest form.
    /// - Complexity: O(1); integer arithmetic only (no `String(format:)`, slow on a map's every vertex).
    public static func fmt(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 9e17 else { return "0" }
        let t = Int64(tenths), whole = t / 10, frac = abs(t % 10)
        let sign = t < 0 && whole == 0 ? "-" : ""
        return frac == 0 ? sign + String(whole) : sign + String(whole) + "." + String(frac)
    }
}
