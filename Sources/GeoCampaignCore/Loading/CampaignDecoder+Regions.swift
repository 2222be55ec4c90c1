extension CampaignDecoder {
    static let regionKeys = ["id", "name", "tags", "circle", "polygon", "holes", "hysteresis", "confirm"]
    static let importKeys = ["import", "tags", "id_property", "name_property", "radius", "hysteresis", "confirm"]
    static let smallRadiusM = 100.0
    /// A circle radius over this is warned about (`300km` meant `300m`).
    static let largeRadiusM = 10_000.0

    func decodeRegionEntry(_ node: YAMLNode, index: Int, scope: CampaignScope) {
        guard let f = fields(node, "a region", example: "- { id: store, circle: { center: \"37.70, -121.75\", radius: 150m } }") else { return }
        if f.has("import") {
            decodeImport(f, entry: index, scope: scope)
            return
        }
        checkKeys(f, known: Self.regionKeys, in: "a region")
        var id: String?
        var idMark = f.mark
        if let n = f["id"], let s = scalar(n, "id", example: "store") {
            idMark = n.mark
            if checkName(s, n.mark, "a region id") { id = s }
        } else {
            error(f.mark, "this region has no id: add id: <name> so that rules can name it")
        }
        let name = f["name"].flatMap { scalar($0, "name", example: "Main Street store") }
        let tags = decodeTags(f["tags"])
        var shape: Region.Shape?
        let hasCircle = f.has("circle"), hasPolygon = f.has("polygon")
        if hasCircle && hasPolygon, let k = f.key("polygon") {
            error(k.mark, "a region is either a circle or a polygon, not both: remove one, or make two regions")
        } else if hasCircle, let n = f["circle"] {
            if let h = f.key("holes") {
                error(h.mark, "'holes' belongs to a polygon, not a circle: remove it")
            }
            shape = decodeCircle(n, misplaced: Set(["center", "radius"].filter { f.has($0) }))
        } else if hasPolygon, let n = f["polygon"] {
            shape = decodePolygon(n, holes: f["holes"])
        } else if let k = f.key("circle") ?? f.key("polygon") {
            error(k.mark, "'\(k.scalar ?? "")' is empty: give the region its shape, e.g. circle: { center: \"37.70, -121.75\", radius: 150m }")
        } else {
            error(idMark, "this region has no shape: add circle: { center: \"lat, lon\", radius: 150m }, polygon: [ ...points ], or import: a GeoJSON file")
        }
        var region = Region(id: id ?? "", name: name, tags: tags, shape: shape ?? .polygon([]))
        if let n = f["hysteresis"] { region.hysteresisM = hysteresis(n) }
        if let n = f["confirm"] { region.confirmMs = duration(n, "confirm") }
        guard let id, shape != nil else {
            // Keep the id known so that rules naming it are not reported twice.
            if let id { _ = scope.regionIds.insert(id, .line(idMark.line)) }
            for t in tags { scope.tags.insert(t) }
            return
        }
        for t in tags { scope.tags.insert(t) }
        if let first = scope.regionIds.insert(id, .line(idMark.line)) {
            error(idMark, "the region id '\(id)' is already used \(first.words): give each region its own id")
            return
        }
        scope.regions.append(region)
        scope.origins.append(.written(idMark: idMark))
    }

    func decodeTags(_ node: YAMLNode?) -> [String] {
        guard let node, let items = scalarList(node, "tags", example: "[competitor, pizza]") else { return [] }
        var out: [String] = []
        for (s, m) in items where checkName(s, m, "a tag") && !out.contains(s) { out.append(s) }
        return out
    }

    /// A circle; `misplaced` names keys written next to `circle:` instead of inside it, which
    /// are reported there and so not reported again as missing.
    func decodeCircle(_ node: YAMLNode, misplaced: Set<String> = []) -> Region.Shape? {
        guard var f = fields(node, "'circle'", example: "circle: { center: \"37.703026, -121.759735\", radius: 300m }") else { return nil }
        // `{ center: 37.70, -121.75 }`: the comma ended the value; say so once.
        if let n = f["center"], let s = n.scalar, n.scalarStyle == .plain, ValueParser.decimal(s) != nil,
           let stray = f.pairs.first(where: { $0.value.isNull && ($0.key.scalar.flatMap(ValueParser.decimal) != nil) }),
           let lon = stray.key.scalar {
            error(n.mark, "put the center in quotes: inside { } a comma separates entries, so write center: \"\(s), \(lon)\"")
            f = Fields(f.node, f.pairs.filter { $0.key.mark != stray.key.mark && $0.key.scalar != "center" })
            checkKeys(f, known: ["center", "radius"], in: "a circle")
            if let r = f["radius"] { _ = checkedRadius(r) }
            return nil
        }
        checkKeys(f, known: ["center", "radius"], in: "a circle")
        var center: Coordinate?
        if let n = f["center"] {
            center = coordinate(n, "the center")
        } else if !misplaced.contains("center") {
            error(f.mark, "this circle has no center: add center: \"lat, lon\", e.g. center: \"37.703026, -121.759735\"")
        }
        var radius: Double?
        if let n = f["radius"] {
            radius = checkedRadius(n)
        } else if !misplaced.contains("radius") {
            error(f.mark, "this circle has no radius: add radius: with a distance, e.g. radius: 150m")
        }
        guard let center, let radius else { return nil }
        return .circle(center: center, radiusM: radius)
    }

    /// A circle radius: > 0, with a warning under 100 m.
    func checkedRadius(_ n: YAMLNode) -> Double? {
        guard let r = distance(n, "radius") else { return nil }
        if r <= 0 {
            error(n.mark, "the radius must be more than 0 m: write a distance such as 150m")
            return nil
        }
        if r > Self.largeRadiusM {
            warning(n.mark, "a radius of \(ValueParser.fmt((r / 10).rounded() / 100)) km is large for a place (more than 10 km): check the unit, e.g. \(ValueParser.fmt((r / 1000).rounded()))m")
        }
        if r < Self.smallRadiusM {
            warning(n.mark, "a radius of \(ValueParser.fmt((r * 100).rounded() / 100)) m is small: phone locations are often off by that much, so visits may be missed or invented; use 100m or more")
        }
        return r
    }

    /// A ring as written: its coordinates and their marks, nil if any point is bad.
    func ring(_ node: YAMLNode, _ what: String) -> [(Coordinate, SourceMark)]? {
        guard let items = node.items else {
            error(node.mark, "\(what) takes a list of points, one per line starting with '- ', e.g. - \"37.7001, -121.7601\"")
            return nil
        }
        var out: [(Coordinate, SourceMark)] = []
        var ok = true
        for (i, item) in items.enumerated() {
            if let c = coordinate(item, "point \(i + 1)") { out.append((c, item.mark)) } else { ok = false }
        }
        return ok ? out : nil
    }

    func decodePolygon(_ node: YAMLNode, holes holesNode: YAMLNode?) -> Region.Shape? {
        guard let outer = ring(node, "'polygon'") else { return nil }
        var holes: [[(Coordinate, SourceMark)]] = []
        var holeMarks: [SourceMark] = []
        var ok = true
        if let h = holesNode {
            if let items = h.items {
                for (i, item) in items.enumerated() {
                    if let r = ring(item, "hole \(i + 1)") {
                        holes.append(r)
                        holeMarks.append(item.mark)
                    } else {
                        ok = false
                    }
                }
            } else {
                error(h.mark, "'holes' takes a list of rings, each a list of points")
                ok = false
            }
        }
        guard ok else { return nil }
        let problems = PolygonCheck.problems(outer: outer.map(\.0), holes: holes.map { $0.map(\.0) })
        for p in problems {
            let mark: SourceMark
            switch p {
            case .tooFewPoints(let r, _):
                mark = r == 0 ? node.mark : holeMarks[r - 1]
            case .tooWide:
                mark = node.mark
            case .crossing(_, _, _, let rb, let fb, _):
                mark = rb == 0 ? outer[fb].1 : holes[rb - 1][fb].1
            case .holeOutside(let h, let pt):
                mark = holes[h - 1][pt].1
            }
            error(mark, p.message(subject: "the polygon"))
        }
        guard problems.isEmpty else { return nil }
        let part = Region.PolygonPart(outer: PolygonCheck.normalize(outer.map(\.0)).points,
                                      holes: holes.map { PolygonCheck.normalize($0.map(\.0)).points })
        return .polygon([part])
    }

    /// Warnings for regions no rule's selector matches.
    func warnUnusedRegions(_ scope: CampaignScope) {
        var perEntry: [Int: (mark: SourceMark, file: String, ids: [String])] = [:]
        var entryOrder: [Int] = []
        // Read in place (zip would copy every region), the arrays bound once.
        let regions = scope.regions, origins = scope.origins, selectors = scope.selectors
        for k in 0..<min(regions.count, origins.count) {
            if selectors.contains(where: { $0.matches(regions[k]) }) { continue }
            let region = regions[k]
            switch origins[k] {
            case .written(let m):
                warning(m, "no rule can match the region '\(region.id)': name it (or one of its tags) in a rule, or remove it")
            case .imported(let e, let m, let f):
                if perEntry[e] == nil {
                    perEntry[e] = (m, f, [])
                    entryOrder.append(e)
                }
                perEntry[e]?.ids.append(region.id)
            }
        }
        for e in entryOrder {
            guard let info = perEntry[e], let first = info.ids.first else { continue }
            if info.ids.count == 1 {
                warning(info.mark, "no rule can match the region '\(first)' imported from \(info.file): name it (or one of its tags) in a rule, or add a tag to this import")
            } else {
                warning(info.mark, "no rule can match \(info.ids.count) regions imported from \(info.file) (the first is '\(first)'): name them in a rule, or add a tag to this import and name the tag")
            }
        }
    }
}
