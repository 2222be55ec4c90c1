import Foundation

/// The regions of a campaign set as an RFC 7946 GeoJSON FeatureCollection (`geocampaign regions
/// --geojson`): `[lon, lat]` positions, closed rings, exterior rings counter-clockwise and holes
/// clockwise, circles as 64-gons.
///
/// Each feature's properties: `id`, `name` (left out when the region has none), `tags`, `kind`
/// (`circle` or `polygon`), `radius_m` (circles only) and `campaign`. Features come in campaign
/// order, then region order; one feature per line.
public enum RegionsGeoJSON {
    /// Number of vertices of the polygon that stands for a circle.
    public static let circleVertices = 64
    /// Earth radius of semantics 1, in meters.
    static let earthRadiusM = 6_371_008.8

    /// The FeatureCollection text, ending with a newline.
    /// - Complexity: O(total vertices).
    public static func featureCollection(_ set: CampaignSet) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: Array("{\"type\":\"FeatureCollection\",\"features\":[".utf8))
        var first = true
        for campaign in set.campaigns {
            for region in campaign.regions {
                out.append(contentsOf: Array((first ? "\n" : ",\n").utf8))
                first = false
                appendFeature(region, campaign: campaign.id, to: &out)
            }
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendFeature(_ region: Region, campaign: String, to out: inout [UInt8]) {
        func raw(_ s: String) { out.append(contentsOf: Array(s.utf8)) }
        raw("{\"type\":\"Feature\",\"properties\":{\"id\":")
        JSONText.appendString(region.id, to: &out)
        if let name = region.name {
            raw(",\"name\":")
            JSONText.appendString(name, to: &out)
        }
        raw(",\"tags\":[")
        for (i, t) in region.tags.enumerated() {
            if i > 0 { raw(",") }
            JSONText.appendString(t, to: &out)
        }
        raw("]")
        switch region.shape {
        case .circle(let center, let radius):
            raw(",\"kind\":\"circle\",\"radius_m\":\(number(radius)),\"campaign\":")
            JSONText.appendString(campaign, to: &out)
            raw("},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[")
            appendRing(circleRing(center: center, radiusM: radius), clockwise: false, rounded: true, to: &out)
            raw("]}}")
        case .polygon(let parts):
            raw(",\"kind\":\"polygon\",\"campaign\":")
            JSONText.appendString(campaign, to: &out)
            let multi = parts.count != 1
            raw("},\"geometry\":{\"type\":\"\(multi ? "MultiPolygon" : "Polygon")\",\"coordinates\":[")
            for (i, part) in parts.enumerated() {
                if i > 0 { raw(",") }
                if multi { raw("[") }
                appendRing(part.outer, clockwise: false, rounded: false, to: &out)
                for hole in part.holes {
                    raw(",")
                    appendRing(hole, clockwise: true, rounded: false, to: &out)
                }
                if multi { raw("]") }
            }
            raw("]}}")
        }
    }

    /// A ring as `[[lon,lat],...]`, closed, in the requested winding.
    private static func appendRing(_ ring: [Coordinate], clockwise: Bool, rounded: Bool, to out: inout [UInt8]) {
        var pts = ring
        while pts.count > 1, pts.last == pts.first { pts.removeLast() }
        let ccw = PolygonCheck.signedArea2(pts) > 0
        if ccw == clockwise { pts.reverse() }
        if let f = pts.first { pts.append(f) }
        out.append(0x5B)
        for (i, p) in pts.enumerated() {
            if i > 0 { out.append(0x2C) }
            let lon = rounded ? (p.lon * 1e7).rounded() / 1e7 : p.lon
            let lat = rounded ? (p.lat * 1e7).rounded() / 1e7 : p.lat
            out.append(contentsOf: Array("[\(number(lon)),\(number(lat))]".utf8))
        }
        out.append(0x5D)
    }

    /// JSON text of a finite number: integers without a fraction.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// The 64 vertices of a circle on the sphere, counter-clockwise in the (lon, lat) plane, not closed.
    static func circleRing(center: Coordinate, radiusM: Double) -> [Coordinate] {
        let phi1 = center.lat * .pi / 180, lambda1 = center.lon * .pi / 180
        let delta = radiusM / earthRadiusM
        var ring: [Coordinate] = []
        ring.reserveCapacity(circleVertices)
        for k in 0..<circleVertices {
            // Bearings decrease from north through west: counter-clockwise on a map.
            let theta = -Double(k) * 2 * .pi / Double(circleVertices)
            let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
            var lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
            if lambda2 > .pi { lambda2 -= 2 * .pi }
            if lambda2 < -.pi { lambda2 += 2 * .pi }
            ring.append(Coordinate(lat: phi2 * 180 / .pi, lon: lambda2 * 180 / .pi))
        }
        return ring
    }
}
