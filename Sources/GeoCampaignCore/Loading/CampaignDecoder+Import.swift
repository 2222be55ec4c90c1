import Foundation

extension CampaignDecoder {
    /// One problem with one imported feature, collected so that many alike are summarized.
    private struct FeatureIssue {
        var severity: Diagnostic.Severity
        /// Groups alike issues.
        var kind: String
        /// The plural phrase for a summary ("cross themselves").
        var plural: String
        /// The full message about this feature.
        var message: String
    }

    /// Text of a JSON id or property: strings as is, numbers as decimal text.
    static func jsonText(_ v: Any?) -> String? {
        switch v {
        case let s as String: return s
        case let n as NSNumber:
            if Self.isBool(n) { return nil }
            let d = n.doubleValue
            if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
            return String(d)
        default: return nil
        }
    }

    /// Whether a JSON number is really `true`/`false`.
    static func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    private static func number(_ v: Any) -> Double? {
        guard let n = v as? NSNumber, !isBool(n) else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    /// `[lon, lat]` positions of a ring; nil if malformed.
    private static func positions(_ v: Any?) -> [Coordinate]? {
        guard let arr = v as? [Any] else { return nil }
        var out: [Coordinate] = []
        for p in arr {
            guard let pair = p as? [Any], pair.count >= 2, let lon = number(pair[0]), let lat = number(pair[1]) else { return nil }
            out.append(Coordinate(lat: lat, lon: lon))
        }
        return out
    }

    func decodeImport(_ f: Fields, entry: Int, scope: CampaignScope) {
        checkKeys(f, known: Self.importKeys, in: "an import")
        guard let pathNode = f["import"], let rel = scalar(pathNode, "import", example: "../regions/stores.geojson") else {
            error(f.mark, "'import' is empty: write the path of a GeoJSON file, relative to this YAML file")
            scope.regionsIncomplete = true
            return
        }
        let resolved: String
        if rel.hasPrefix("/") || directory.isEmpty {
            resolved = rel
        } else {
            resolved = directory.hasSuffix("/") ? directory + rel : directory + "/" + rel
        }
        let extraTags = decodeTags(f["tags"])
        for t in extraTags { scope.tags.insert(t) }
        let idProperty = f["id_property"].flatMap { scalar($0, "id_property", example: "ref") }
        let nameProperty = f["name_property"].flatMap { scalar($0, "name_property", example: "title") } ?? "name"
        var radius: Double?
        if let n = f["radius"] { radius = checkedRadius(n) }
        let hyst = f["hysteresis"].flatMap { hysteresis($0) }
        let confirm = f["confirm"].flatMap { duration($0, "confirm") }

        let root: [String: Any]
        switch imports.object(at: resolved) {
        case .failure(let e):
            error(pathNode.mark, "the import '\(rel)' \(e.message)")
            scope.regionsIncomplete = true
            return
        case .success(let o):
            root = o
        }
        guard (root["type"] as? String) == "FeatureCollection", let features = root["features"] as? [Any] else {
            let t = (root["type"] as? String).map { " (its type is '\($0)')" } ?? ""
            error(pathNode.mark, "'\(rel)' is not a GeoJSON FeatureCollection\(t): export the regions as a FeatureCollection of Point, Polygon and MultiPolygon features")
            scope.regionsIncomplete = true
            return
        }
        var issues: [FeatureIssue] = []
        var pointExample: String?
        var added: [(Region, String)] = []
        for (i, raw) in features.enumerated() {
            guard let feature = raw as? [String: Any] else {
                issues.append(FeatureIssue(severity: .error, kind: "not-object", plural: "are not GeoJSON Feature objects",
                                           message: "feature \(i + 1) is not a GeoJSON Feature object"))
                continue
            }
            let props = feature["properties"] as? [String: Any] ?? [:]
            let id: String?
            if let p = idProperty {
                id = Self.jsonText(props[p])
            } else {
                id = Self.jsonText(feature["id"]) ?? Self.jsonText(props["id"])
            }
            let label = id.map { "feature \(i + 1) ('\($0)')" } ?? "feature \(i + 1)"
            guard let id, !id.isEmpty, !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                let how = idProperty.map { "give it a property '\($0)'" } ?? "give it an \"id\" or a property \"id\", or name the property that holds ids with id_property:"
                issues.append(FeatureIssue(severity: .error, kind: "no-id", plural: "have no usable id",
                                           message: "\(label) has no usable id: \(how)"))
                continue
            }
            let name = Self.jsonText(props[nameProperty])
            var tags = extraTags
            if let t = props["tags"] {
                if let list = t as? [Any], list.allSatisfy({ $0 is String }) {
                    for case let s as String in list where !s.isEmpty && !tags.contains(s) { tags.append(s) }
                } else {
                    issues.append(FeatureIssue(severity: .error, kind: "bad-tags", plural: "have properties.tags that is not a list of strings",
                                               message: "\(label) has properties.tags that is not a list of strings: write \"tags\": [\"a\", \"b\"]"))
                }
            }
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
                issues.append(FeatureIssue(severity: .error, kind: "no-geometry", plural: "have no geometry",
                                           message: "\(label) has no geometry: give it a Point, Polygon or MultiPolygon"))
                continue
            }
            let coords = geometry["coordinates"]
            var shape: Region.Shape?
            switch type {
            case "Point":
                guard let pos = Self.positions([coords as Any]), let c = pos.first else {
                    issues.append(FeatureIssue(severity: .error, kind: "bad-coords", plural: "have malformed coordinates",
                                               message: "\(label) has malformed coordinates: a Point is [longitude, latitude]"))
                    continue
                }
                guard Self.inRange(c) else {
                    issues.append(FeatureIssue(severity: .error, kind: "range", plural: "have coordinates out of range",
                                               message: "\(label) has a point out of range (longitude \(ValueParser.fmt(c.lon)), latitude \(ValueParser.fmt(c.lat))): GeoJSON writes [longitude, latitude]"))
                    continue
                }
                if pointExample == nil { pointExample = id }
                shape = .circle(center: c, radiusM: radius ?? 0)
            case "Polygon", "MultiPolygon":
                var polys: [[Any]] = []
                if type == "Polygon" {
                    if let p = coords as? [Any] { polys = [p] }
                } else if let mp = coords as? [Any] {
                    polys = mp.compactMap { $0 as? [Any] }
                    if polys.count != mp.count { polys = [] }
                }
                var parts: [Region.PolygonPart] = []
                var bad = polys.isEmpty
                var fatal = false
                for (pi, poly) in polys.enumerated() {
                    let rings = poly.map { Self.positions($0) }
                    guard !rings.isEmpty, rings.allSatisfy({ $0 != nil }) else { bad = true; break }
                    let rs = rings.compactMap { $0 }
                    if let c = rs.joined().first(where: { !Self.inRange($0) }) {
                        issues.append(FeatureIssue(severity: .error, kind: "range", plural: "have coordinates out of range",
                                                   message: "\(label) has a point out of range (longitude \(ValueParser.fmt(c.lon)), latitude \(ValueParser.fmt(c.lat))): GeoJSON writes [longitude, latitude]"))
                        fatal = true
                        break
                    }
                    let subject = polys.count > 1 ? "part \(pi + 1) of \(label)" : label
                    for p in PolygonCheck.problems(outer: rs[0], holes: Array(rs.dropFirst())) {
                        switch p {
                        case .crossing:
                            let at = Self.crossingPlace(p, rs)
                            issues.append(FeatureIssue(severity: .warning, kind: "crossing", plural: "cross themselves",
                                                       message: p.message(subject: subject, place: at) + "; inside and outside follow the even-odd rule"))
                        default:
                            issues.append(FeatureIssue(severity: .error, kind: "polygon", plural: "are not valid polygons",
                                                       message: p.message(subject: subject)))
                            fatal = true
                        }
                    }
                    parts.append(Region.PolygonPart(outer: PolygonCheck.normalize(rs[0]).points,
                                                    holes: rs.dropFirst().map { PolygonCheck.normalize($0).points }))
                }
                if bad {
                    issues.append(FeatureIssue(severity: .error, kind: "bad-coords", plural: "have malformed coordinates",
                                               message: "\(label) has malformed \(type) coordinates: rings are lists of [longitude, latitude] positions"))
                    continue
                }
                if fatal { continue }
                shape = .polygon(parts)
            default:
                issues.append(FeatureIssue(severity: .error, kind: "type-\(type)", plural: "are \(type) features, which cannot be regions",
                                           message: "\(label) is a \(type): only Point, Polygon and MultiPolygon features can be regions"))
                continue
            }
            guard let shape else { continue }
            added.append((Region(id: id, name: name, tags: tags, shape: shape, hysteresisM: hyst, confirmMs: confirm), label))
        }
        if let example = pointExample, radius == nil, !f.has("radius") {
            error(pathNode.mark, "'\(rel)' holds Point features (the first is '\(example)'): add a radius to this import to make them circles, e.g. radius: 100m")
            added.removeAll { if case .circle = $0.0.shape { return true } else { return false } }
            scope.regionsIncomplete = true
        }
        if pointExample != nil, radius == nil {
            added.removeAll { if case .circle = $0.0.shape { return true } else { return false } }
        }
        for (region, label) in added {
            if let first = scope.regionIds[region.id] {
                let place = scope.regionIdPlace[region.id] ?? "on line \(first.line)"
                issues.append(FeatureIssue(severity: .error, kind: "dup", plural: "have ids already used in this campaign",
                                           message: "\(label) has the id '\(region.id)', already used \(place): region ids must be unique in a campaign (use id_property: to pick another property)"))
                continue
            }
            scope.regionIds[region.id] = pathNode.mark
            scope.regionIdPlace[region.id] = "by \(label) of '\(rel)', imported on line \(pathNode.mark.line)"
            for t in region.tags { scope.tags.insert(t) }
            scope.regions.append(region)
            scope.origins.append(.imported(entry: entry, mark: pathNode.mark, file: rel))
        }
        if features.isEmpty {
            warning(pathNode.mark, "'\(rel)' has no features: it adds no regions")
        }
        // Report: alike issues are summarized.
        var order: [String] = []
        var groups: [String: [FeatureIssue]] = [:]
        for issue in issues {
            if groups[issue.kind] == nil { order.append(issue.kind) }
            groups[issue.kind, default: []].append(issue)
        }
        for kind in order {
            guard let g = groups[kind], let first = g.first else { continue }
            let text = g.count == 1
                ? "in '\(rel)', \(first.message)"
                : "in '\(rel)', \(g.count) features \(first.plural); the first: \(first.message)"
            if first.severity == .error { error(pathNode.mark, text) } else { warning(pathNode.mark, text) }
        }
    }

    private static func inRange(_ c: Coordinate) -> Bool {
        (-90.0...90.0).contains(c.lat) && (-180.0...180.0).contains(c.lon)
    }

    /// " near lat, lon" for a crossing problem: the start of the second crossing edge.
    private static func crossingPlace(_ p: PolygonCheck.Problem, _ rings: [[Coordinate]]) -> String {
        guard case .crossing(_, _, _, let rb, let fb, _) = p, rb < rings.count, fb < rings[rb].count else { return "" }
        let c = rings[rb][fb]
        return " near \(c.lat), \(c.lon)"
    }
}
