import Foundation

/// The report's map (measurement.md 5): every region of every campaign drawn in Web Mercator as
/// one SVG shape (a circle, or one even-odd path for a polygon with holes or several parts),
/// filled by its visit count; with a user, that user's track, visits and decisions on top.
public enum RegionMap {
    /// Fill colors of the heat, from few visits to many.
    static let heatStops: [(Double, Double, Double)] = [(255, 237, 160), (254, 178, 76), (240, 59, 32), (128, 0, 38)]
    /// Fill of a region nobody visited.
    static let noVisits = "#cfd8dc"

    /// The fill of a region with `visits` visits when the most visited region has `maxVisits`:
    /// a log scale over `heatStops`.
    public static func heatColor(visits: Int, maxVisits: Int) -> String {
        guard visits > 0, maxVisits > 0 else { return noVisits }
        let t = maxVisits == 1 ? 1 : log1p(Double(visits)) / log1p(Double(maxVisits))
        let pos = min(max(t, 0), 1) * Double(heatStops.count - 1)
        let i = min(Int(pos), heatStops.count - 2), f = pos - Double(i)
        let a = heatStops[i], b = heatStops[i + 1]
        func hex(_ x: Double, _ y: Double) -> String {
            let v = Int((x + (y - x) * f).rounded())
            return (v < 16 ? "0" : "") + String(v, radix: 16)
        }
        return "#" + hex(a.0, b.0) + hex(a.1, b.1) + hex(a.2, b.2)
    }

    /// The frame that holds every region and the user's fixes.
    public static func frame(campaigns: CampaignSet, user: ReportUser?) -> MapFrame {
        var points: [(x: Double, y: Double)] = []
        for c in campaigns.campaigns {
            for r in c.regions {
                switch r.shape {
                case let .circle(center, radius):
                    let p = WebMercator.project(center), d = radius * WebMercator.scale(atLatitude: center.lat)
                    points.append((p.x - d, p.y - d))
                    points.append((p.x + d, p.y + d))
                case .polygon(let parts):
                    for part in parts { points += part.outer.map { WebMercator.project($0) } }
                }
            }
        }
        if let u = user { points += u.fixes.map { WebMercator.project(Coordinate(lat: $0.lat, lon: $0.lon)) } }
        return MapFrame(points: points)
    }

    /// The `<svg>` element of the map.
    /// - Parameters:
    ///   - m: the measurement, for the visits per region.
    ///   - campaigns: the campaigns whose regions are drawn (the set `m` was made from).
    ///   - user: the user to draw, if any.
    /// - Complexity: O(vertices + fixes of the user).
    public static func svg(_ m: MeasurementResult, campaigns: CampaignSet, user: ReportUser?) -> String {
        let frame = frame(campaigns: campaigns, user: user)
        let maxVisits = m.campaigns.flatMap(\.regionVisits).max() ?? 0
        var s = "<svg id=\"map\" class=\"map\" viewBox=\"\(frame.viewBox)\" role=\"img\" aria-label=\"Map of the campaigns' regions, colored by visits\">\n"
        s += "<rect class=\"map-bg\" x=\"-100000000\" y=\"-100000000\" width=\"200000000\" height=\"200000000\"/>\n"
        for cm in m.campaigns {
            let c = campaigns.campaigns[cm.index]
            s += "<g class=\"campaign\" data-campaign=\"\(HTMLText.escape(c.id))\">\n"
            for (r, region) in c.regions.enumerated() {
                let visits = r < cm.regionVisits.count ? cm.regionVisits[r] : 0
                let label = (region.name.map { "\($0) (\(region.id))" } ?? region.id) + " · \(c.id): "
                    + HumanNumber.count(visits) + (visits == 1 ? " visit" : " visits")
                let attrs = "class=\"region\" data-region=\"\(HTMLText.escape(region.id))\" data-visits=\"\(visits)\" fill=\"\(heatColor(visits: visits, maxVisits: maxVisits))\""
                s += shape(region.shape, frame: frame, attrs: attrs) + "<title>\(HTMLText.escape(label))</title></" + (isCircle(region.shape) ? "circle" : "path") + ">\n"
            }
            s += "</g>\n"
        }
        if let user { s += track(user, campaigns: campaigns, frame: frame) }
        s += "</svg>"
        return s
    }

    private static func isCircle(_ shape: Region.Shape) -> Bool {
        if case .circle = shape { return true }
        return false
    }

    /// The opening tag of one region's shape (closed by the caller after its title).
    static func shape(_ shape: Region.Shape, frame: MapFrame, attrs: String) -> String {
        switch shape {
        case let .circle(center, radius):
            let p = frame.point(center), r = radius * WebMercator.scale(atLatitude: center.lat)
            return "<circle \(attrs) cx=\"\(MapFrame.fmt(p.x))\" cy=\"\(MapFrame.fmt(p.y))\" r=\"\(MapFrame.fmt(r))\">"
        case .polygon(let parts):
            var d = ""
            for part in parts {
                for ring in [part.outer] + part.holes where !ring.isEmpty {
                    for (i, c) in ring.enumerated() {
                        let p = frame.point(c)
                        d += (i == 0 ? "M" : "L") + MapFrame.fmt(p.x) + " " + MapFrame.fmt(p.y)
                    }
                    d += "Z"
                }
            }
            return "<path \(attrs) fill-rule=\"evenodd\" d=\"\(d)\">"
        }
    }

    /// The user's track (a polyline), a mark where each visit began and one per decision.
    static func track(_ u: ReportUser, campaigns: CampaignSet, frame: MapFrame) -> String {
        let fixes = u.fixes
        guard !fixes.isEmpty else { return "" }
        let dot = MapFrame.fmt(max(frame.width, frame.height) / 150)
        var s = "<g class=\"user\" data-user=\"\(HTMLText.escape(u.outcome.userId))\">\n<polyline class=\"track\" points=\""
        for (i, f) in fixes.enumerated() {
            let p = frame.point(Coordinate(lat: f.lat, lon: f.lon))
            s += (i == 0 ? "" : " ") + MapFrame.fmt(p.x) + "," + MapFrame.fmt(p.y)
        }
        s += "\"/>\n"
        func at(_ t: Int64) -> (x: Double, y: Double) {
            // The last fix at or before t (the first fix when t is before all).
            var lo = 0, hi = fixes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if fixes[mid].time <= t { lo = mid + 1 } else { hi = mid }
            }
            let f = fixes[max(0, lo - 1)]
            return frame.point(Coordinate(lat: f.lat, lon: f.lon))
        }
        for (c, visits) in u.outcome.visits.enumerated() {
            let campaign = campaigns.campaigns[c]
            for v in visits {
                let p = at(v.enter)
                let region = campaign.regions[Int(v.region)].id
                let text = "\(campaign.id) · entered \(region) at \(ReportTime.text(v.enter)), stayed \(ReportTime.duration(v.duration))"
                s += "<rect class=\"visit\" x=\"\(MapFrame.fmt(p.x))\" y=\"\(MapFrame.fmt(p.y))\" width=\"\(dot)\" height=\"\(dot)\"><title>\(HTMLText.escape(text))</title></rect>\n"
            }
        }
        for d in u.outcome.decisions {
            let p = at(d.trigger.time)
            let c = campaigns.campaigns[d.trigger.campaign], rule = c.rules[d.trigger.rule]
            let text = "\(ReportTime.text(d.trigger.time)) · \(c.id) / \(rule.id) → \(rule.offer): \(d.status.rawValue)"
            s += "<circle class=\"decision status-\(d.status.rawValue)\" cx=\"\(MapFrame.fmt(p.x))\" cy=\"\(MapFrame.fmt(p.y))\" r=\"\(dot)\"><title>\(HTMLText.escape(text))</title></circle>\n"
        }
        return s + "</g>\n"
    }
}
