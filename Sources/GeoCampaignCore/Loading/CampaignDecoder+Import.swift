import Foundation

extension CampaignDecoder {
    /// One problem with one imported feature. Errors are reported inside the GeoJSON file at
    /// `offset`; warnings too when there is one of a kind, else summarized at the import entry.
    /// The message is made when reported, from the feature's label ("feature 3 ('x')"): a part
    /// of the file parsed ahead decodes its features before their numbers are known.
    private struct FeatureIssue {
        var severity: Diagnostic.Severity
        /// Groups alike issues.
        var kind: String
        /// The plural phrase for a summary ("cross themselves").
        var plural: String
        /// The feature's number (0-based) and the id its label shows.
        var feature: Int
        var id: String?
        /// The full message about this feature, from its label.
        var render: (String) -> String
        /// Where in the GeoJSON file: a byte offset.
        var offset: Int

        /// The full message.
        var message: String { render(CampaignDecoder.featureLabel(feature, id)) }
    }

    /// How messages name feature `i` (0-based) with id `id`.
    static func featureLabel(_ i: Int, _ id: String?) -> String {
        id.map { "feature \(i + 1) ('\($0)')" } ?? "feature \(i + 1)"
    }

    /// Whether `s` holds a control character (general category Cc); printable ASCII is checked
    /// by a scan of its UTF-8 bytes without Unicode property look-ups.
    static func hasControlCharacter(_ s: String) -> Bool {
        let printable = s.utf8.withContiguousStorageIfAvailable { bytes in
            // Every byte is tested (no early exit), so that the loop is a plain reduction.
            var outside: UInt8 = 0
            for b in bytes { outside |= b &- 0x20 < 0x5F ? 0 : 1 }
            return outside == 0
        } ?? s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if printable { return false }
        return s.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func inRange(_ c: Coordinate) -> Bool {
        (-90.0...90.0).contains(c.lat) && (-180.0...180.0).contains(c.lon)
    }

    /// Ring and position of the first position out of range (NaN is out of range).
    static func firstOutOfRange(_ rings: [[Coordinate]]) -> (Int, Int)? {
        for (r, ring) in rings.enumerated() {
            // Most rings are in range: one pass without an early exit tells, and only a ring
            // that is not is searched for its first position out of range.
            let allIn = ring.withUnsafeBufferPointer { pts in
                var all = true
                for c in pts { all = all && inRange(c) }
                return all
            }
            if allIn { continue }
            for (k, c) in ring.enumerated() where !inRange(c) { return (r, k) }
        }
        return nil
    }

    private static func rangeMessage(_ label: String, _ c: Coordinate) -> String {
        "\(label) has a position out of range (longitude \(ValueParser.fmt(c.lon)), latitude \(ValueParser.fmt(c.lat))): GeoJSON writes [longitude, latitude], longitude first"
    }

    /// An import path as written, resolved against this YAML file's folder.
    func resolvedImportPath(_ rel: String) -> String {
        if rel.hasPrefix("/") || directory.isEmpty { return rel }
        return directory.hasSuffix("/") ? directory + rel : directory + "/" + rel
    }

    /// What one feature adds: its problems, the region it defines, and its id if it is a Point.
    private struct FeatureOutcome {
        var issues: [FeatureIssue] = []
        var pointId: String?
        /// The region the feature defines, its number (0-based) and the byte offset of the
        /// value that names it (where a duplicate id is reported).
        var region: Region?
        var feature = 0
        var regionOffset = 0
        /// The region id's `hashValue`, computed on the decoding thread.
        var idHash = 0

        /// The outcome of the feature `by` places later (a part parsed ahead numbered its
        /// features from 0).
        mutating func renumber(by delta: Int) {
            for k in issues.indices { issues[k].feature += delta }
            feature += delta
        }
    }

    /// The settings of one import entry that every feature is decoded with.
    private struct ImportSettings {
        var extraTags: [String]
        var idProperty: String?
        var nameProperty: String
        var radius: Double?
        var hyst: Double?
        var confirm: Int64?
        /// The member names looked up in each feature, prepared once.
        var keys: Keys

        /// The member names a feature is read by.
        struct Keys {
            let properties = JSONTape.Key("properties"), id = JSONTape.Key("id"), geometry = JSONTape.Key("geometry")
            let type = JSONTape.Key("type"), coordinates = JSONTape.Key("coordinates"), tags = JSONTape.Key("tags")
            let idProperty: JSONTape.Key?
            let nameProperty: JSONTape.Key

            init(idProperty: String?, nameProperty: String) {
                self.idProperty = idProperty.map(JSONTape.Key.init)
                self.nameProperty = JSONTape.Key(nameProperty)
            }
        }

        init(extraTags: [String], idProperty: String?, nameProperty: String, radius: Double?, hyst: Double?, confirm: Int64?) {
            self.extraTags = extraTags
            self.idProperty = idProperty
            self.nameProperty = nameProperty
            self.radius = radius
            self.hyst = hyst
            self.confirm = confirm
            keys = Keys(idProperty: idProperty, nameProperty: nameProperty)
        }

        /// The same settings in storage of their own (strings, the tag list and the names
        /// copied).
        func ownCopy() -> ImportSettings {
            ImportSettings(extraTags: extraTags.map { String(decoding: Array($0.utf8), as: UTF8.self) },
                           idProperty: idProperty.map { String(decoding: Array($0.utf8), as: UTF8.self) },
                           nameProperty: String(decoding: Array(nameProperty.utf8), as: UTF8.self),
                           radius: radius, hyst: hyst, confirm: confirm)
        }
    }

    /// Decodes the features of an import as the parser reads them (`JSONItemSink`): each
    /// thread parsing a part of the file decodes that part's features into a sink of its own,
    /// with its own copy of the settings (so that the reference counts it touches per feature
    /// are its own), and the parts' outcomes are joined in file order.
    private final class FeatureSink: JSONItemSink {
        private let settings: ImportSettings
        /// The rings as written, and the polygon check's memory, reused from feature to feature.
        private var scratch: [[Coordinate]] = []
        private let checkScratch = PolygonCheck.Scratch()
        /// One outcome per feature taken, in file order, in blocks of `blockSize`, unless the
        /// sink merges them (`merge`): an array of 100k outcomes grown by doubling moved them
        /// again and again, into fresh pages; and blocks of 4 MiB or more are mapped by `malloc`
        /// (`ProcessMemory.mappedBlockBytes`), so that once merged they are given back, where
        /// smaller ones freed after the parse left 16 MB of holes in the heap that the compile's
        /// arrays did not fit in.
        var outcomes: [[FeatureOutcome]] = []
        private static let blockSize = max(1_024, Int(ProcessMemory.mappedBlockBytes) / MemoryLayout<FeatureOutcome>.stride + 1)
        /// The calling thread's sink merges each outcome as soon as it is decoded (while it is
        /// still in the cache, beside the other threads' decoding), and those of the parts
        /// parsed ahead as it takes them over: no serial merge of every feature after the parse.
        var merge: FeatureMerge?

        init(_ settings: ImportSettings) {
            self.settings = settings
        }

        func take(_ item: JSONTape.Value, _ k: Int) {
            var outcome = CampaignDecoder.decodeFeature(k, item, settings, &scratch, checkScratch)
            if let merge {
                merge.add(&outcome)
                return
            }
            if outcomes.last.map({ $0.count == Self.blockSize }) ?? true {
                var block: [FeatureOutcome] = []
                block.reserveCapacity(Self.blockSize)
                HugePages.advise(storageOf: &block)
                outcomes.append(block)
            }
            outcomes[outcomes.count - 1].append(outcome)
        }

        func append(_ later: any JSONItemSink, first: Int) {
            guard let later = later as? FeatureSink else { return }
            for b in later.outcomes.indices {
                for k in later.outcomes[b].indices { later.outcomes[b][k].renumber(by: first) }
            }
            if let merge {
                // Their ids' slots in the id table are loaded a few features ahead.
                for b in later.outcomes.indices {
                    var block: [FeatureOutcome] = []
                    swap(&block, &later.outcomes[b])
                    for k in block.indices {
                        if k + 8 < block.count { merge.prefetch(block[k + 8]) }
                        var outcome = FeatureOutcome()
                        swap(&outcome, &block[k])
                        merge.add(&outcome)
                    }
                }
            } else {
                outcomes += later.outcomes
            }
            later.outcomes = []
        }
    }

    /// The campaign's regions, their ids, origins and tags as an import adds its features'
    /// regions to them one by one in feature order, with the features' problems; while the
    /// import is decoded it holds them (moved out of the `CampaignScope`, put back after).
    /// One thread uses it at a time (the one that merges), so its storage is not checked for
    /// overlapping accesses per feature.
    private final class FeatureMerge {
        @exclusivity(unchecked) var regions: [Region]
        @exclusivity(unchecked) var origins: [CampaignScope.Origin]
        @exclusivity(unchecked) var regionIds: RegionIdTable
        @exclusivity(unchecked) var tags: Set<String>
        @exclusivity(unchecked) var issues: [FeatureIssue] = []
        @exclusivity(unchecked) var duplicates: [FeatureIssue] = []
        @exclusivity(unchecked) var pointExample: String?
        let radius: Double?
        let extraTagCount: Int
        let rel: String
        let line: Int
        let entry: Int
        let pathMark: SourceMark
        let campaignPath: String
        /// What the scope held before the import (for `undo`).
        private let start: (regions: Int, origins: Int, ids: Int)
        private let tagsBefore: Set<String>

        init(scope: CampaignScope, radius: Double?, extraTagCount: Int, rel: String, pathMark: SourceMark, entry: Int, campaignPath: String) {
            regions = []
            origins = []
            regionIds = RegionIdTable()
            tags = []
            swap(&regions, &scope.regions)
            swap(&origins, &scope.origins)
            swap(&regionIds, &scope.regionIds)
            swap(&tags, &scope.tags)
            self.radius = radius
            self.extraTagCount = extraTagCount
            self.rel = rel
            line = pathMark.line
            self.pathMark = pathMark
            self.entry = entry
            self.campaignPath = campaignPath
            start = (regions.count, origins.count, regionIds.count)
            tagsBefore = tags
        }

        /// Room for about `features` more regions, growing geometrically: several large imports
        /// in a row must not each rehash or copy everything the ones before added.
        func reserve(_ features: Int) {
            if regionIds.capacity < regionIds.count + features {
                regionIds.reserveCapacity(max(regionIds.count + features, 2 * regionIds.capacity))
            }
            if regions.capacity < regions.count + features {
                regions.reserveCapacity(max(regions.count + features, 2 * regions.capacity))
                HugePages.advise(storageOf: &regions)
            }
            if origins.capacity < origins.count + features {
                origins.reserveCapacity(max(origins.count + features, 2 * origins.capacity))
                HugePages.advise(storageOf: &origins)
            }
        }

        /// Loads the id table's slot for `outcome`'s region (a hint: the merge of a part parsed
        /// ahead reads the table at random places, each a cache miss).
        @inline(__always) func prefetch(_ outcome: FeatureOutcome) {
            if outcome.region != nil { regionIds.prefetch(hash: outcome.idHash) }
        }

        /// Adds the next feature's outcome (moved out of it): its problems, and its region
        /// unless its id is taken (a duplicate, reported) or it is a Point without a radius.
        func add(_ outcome: inout FeatureOutcome) {
            if !outcome.issues.isEmpty { issues += outcome.issues }
            if pointExample == nil, let p = outcome.pointId { pointExample = p }
            guard let region = outcome.region.take() else { return }
            // Without a radius, Points make no regions (reported by the import).
            if radius == nil, case .circle = region.shape { return }
            let id = region.id
            if let first = regionIds.insert(id, .imported(feature: outcome.feature + 1, id: id, file: rel, line: line), hash: outcome.idHash) {
                let words = first.words, path = campaignPath
                duplicates.append(FeatureIssue(severity: .error, kind: "dup", plural: "have ids already used in this campaign",
                                               feature: outcome.feature, id: id,
                                               render: { "\($0) has the id '\(id)', already used \(words) in \(path): region ids must be unique in a campaign (use id_property: to pick another property)" },
                                               offset: outcome.regionOffset))
                return
            }
            // The import's own tags were added before; only a feature's extra tags are new.
            if region.tags.count > extraTagCount {
                for t in region.tags.dropFirst(extraTagCount) { tags.insert(t) }
            }
            regions.append(consume region)
            origins.append(.imported(entry: entry, mark: pathMark, file: rel))
        }

        /// Forgets everything added (the import failed, or its features are decoded again).
        func undo() {
            regions.removeSubrange(start.regions...)
            origins.removeSubrange(start.origins...)
            regionIds.truncate(to: start.ids)
            tags = tagsBefore
            issues = []
            duplicates = []
            pointExample = nil
        }

        /// Puts the regions, origins, ids and tags back into `scope`.
        func giveBack(to scope: CampaignScope) {
            swap(&regions, &scope.regions)
            swap(&origins, &scope.origins)
            swap(&regionIds, &scope.regionIds)
            swap(&tags, &scope.tags)
        }
    }

    /// Decodes feature `i` (0-based) of an import. The rings as written are read into `scratch`,
    /// reused from feature to feature: only the normalized rings, which the region keeps, are
    /// allocated per feature (a fresh copy of every ring as written, freed among the kept ones,
    /// left the heap full of holes: about 50 MB with 100k polygons).
    private static func decodeFeature(_ i: Int, _ feature: JSONTape.Value, _ settings: ImportSettings, _ scratch: inout [[Coordinate]],
                                      _ checkScratch: PolygonCheck.Scratch) -> FeatureOutcome {
        var out = FeatureOutcome()
        let extraTags = settings.extraTags, idProperty = settings.idProperty, keys = settings.keys
        let radius = settings.radius, hyst = settings.hyst, confirm = settings.confirm
        func issue(_ severity: Diagnostic.Severity, _ kind: String, _ plural: String, id: String?, at offset: Int,
                   _ render: @escaping (String) -> String) {
            out.issues.append(FeatureIssue(severity: severity, kind: kind, plural: plural, feature: i, id: id, render: render, offset: offset))
        }
        guard feature.isObject else {
            issue(.error, "not-object", "are not GeoJSON Feature objects", id: nil, at: feature.offset) { "\($0) is not a GeoJSON Feature object" }
            return out
        }
        let props = feature[keys.properties]
        let idNode: JSONTape.Value?
        let id: String?
        if let p = keys.idProperty {
            idNode = props?[p]
            id = idNode?.text
        } else if let n = feature[keys.id], let t = n.text {
            idNode = n
            id = t
        } else {
            idNode = props?[keys.id]
            id = idNode?.text
        }
        guard let id, !id.isEmpty, !Self.hasControlCharacter(id) else {
            let how = idProperty.map { "give it a property \"\($0)\" (named by id_property)" }
                ?? "give it an \"id\" or a property \"id\", or name the property that holds its id with id_property: in the import"
            issue(.error, "no-id", "have no usable id", id: id, at: idNode?.offset ?? feature.offset) { "\($0) has no usable id: \(how)" }
            return out
        }
        let name = props?[keys.nameProperty]?.text
        var tags = extraTags
        if let t = props?[keys.tags] {
            if let strings = t.strings {
                tags.reserveCapacity(extraTags.count + strings.count)
                for s in strings where !s.isEmpty && !tags.contains(s) { tags.append(s) }
            } else if t.isNull {
            } else {
                issue(.error, "bad-tags", "have tags that are not a list of strings", id: id, at: t.offset) {
                    "\($0) has \"tags\" that are not a list of strings: write \"tags\": [\"a\", \"b\"]"
                }
            }
        }
        guard let geometry = feature[keys.geometry], geometry.isObject, let type = geometry[keys.type]?.string else {
            issue(.error, "no-geometry", "have no geometry", id: id, at: feature[keys.geometry]?.offset ?? feature.offset) {
                "\($0) has no geometry: give it a Point, Polygon or MultiPolygon"
            }
            return out
        }
        let coords = geometry[keys.coordinates]
        let coordsOffset = coords?.offset ?? geometry.offset
        var shape: Region.Shape?
        switch type {
        case "Point":
            guard let c = coords, let p = c.position else {
                issue(.error, "bad-coords", "have malformed coordinates", id: id, at: coordsOffset) {
                    "\($0) has malformed coordinates: a Point is [longitude, latitude]"
                }
                return out
            }
            guard Self.inRange(p) else {
                issue(.error, "range", "have positions out of range", id: id, at: c.offset) { Self.rangeMessage($0, p) }
                return out
            }
            out.pointId = id
            shape = .circle(center: p, radiusM: radius ?? 0)
        case "Polygon", "MultiPolygon":
            var polys: [JSONTape.Value] = []
            if type == "Polygon" {
                if let c = coords { polys = [c] }
            } else if let mp = coords?.array {
                polys = mp
            }
            var parts: [Region.PolygonPart] = []
            parts.reserveCapacity(polys.count)
            var malformed = polys.isEmpty
            var fatal = false
            for (pi, poly) in polys.enumerated() {
                guard let ringNodes = poly.array, !ringNodes.isEmpty else { malformed = true; break }
                // Each ring normalized as it is read from the nodes (`PolygonCheck.normalizedRing`),
                // with its range checked; the rings as written are read again only to name a
                // problem's place.
                var normalized: [[Coordinate]] = []
                normalized.reserveCapacity(ringNodes.count)
                var span = 0.0, inRange = true
                for r in ringNodes {
                    guard let ring = Self.normalizedRing(r) else { break }
                    if normalized.isEmpty { span = ring.hi - ring.lo }
                    inRange = inRange && ring.inRange
                    normalized.append(ring.points)
                }
                guard normalized.count == ringNodes.count else { malformed = true; break }
                func written() -> [[Coordinate]] {
                    for (k, r) in ringNodes.enumerated() {
                        if k == scratch.count { scratch.append([]) }
                        _ = r.positions(into: &scratch[k])
                    }
                    return Array(scratch[0..<ringNodes.count])
                }
                if !inRange {
                    let rs = written()
                    if let (r, k) = Self.firstOutOfRange(rs) {
                        let at = rs[r][k]
                        issue(.error, "range", "have positions out of range", id: id, at: ringNodes[r].itemOffset(k)) { Self.rangeMessage($0, at) }
                        fatal = true
                        break
                    }
                }
                let several = polys.count > 1
                func subject(_ label: String) -> String { several ? "part \(pi + 1) of \(label)" : label }
                let problems = PolygonCheck.check(normalized: normalized, outerLonSpan: span, written: written, scratch: checkScratch)
                for p in problems {
                    switch p {
                    case .crossing(_, _, _, let rb, let fb, _):
                        let at = written()[rb][fb]
                        issue(.warning, "crossing", "cross themselves", id: id, at: ringNodes[rb].itemOffset(fb)) {
                            p.message(subject: subject($0), place: " near \(at.lat), \(at.lon)") + "; inside and outside follow the even-odd rule"
                        }
                    case .tooFewPoints(let r, _):
                        issue(.error, "polygon", "are not valid polygons", id: id, at: ringNodes[r].offset) { p.message(subject: subject($0)) }
                        fatal = true
                    case .tooWide:
                        issue(.error, "polygon", "are not valid polygons", id: id, at: ringNodes[0].offset) { p.message(subject: subject($0)) }
                        fatal = true
                    case .holeOutside(let h, let pt):
                        issue(.error, "polygon", "are not valid polygons", id: id, at: ringNodes[h].itemOffset(pt)) { p.message(subject: subject($0)) }
                        fatal = true
                    }
                }
                parts.append(Region.PolygonPart(outer: normalized[0], holes: Array(normalized.dropFirst())))
            }
            if malformed {
                issue(.error, "bad-coords", "have malformed coordinates", id: id, at: coordsOffset) {
                    "\($0) has malformed \(type) coordinates: rings are lists of [longitude, latitude] positions"
                }
                return out
            }
            if fatal { return out }
            shape = .polygon(parts)
        default:
            issue(.error, "type-\(type)", "are \(type) features, which cannot be regions", id: id, at: geometry[keys.type]?.offset ?? geometry.offset) {
                "\($0) is a \(type): only Point, Polygon and MultiPolygon features can be regions"
            }
            return out
        }
        guard let shape else { return out }
        out.region = Region(id: id, name: name, tags: tags, shape: shape, hysteresisM: hyst, confirmMs: confirm)
        out.feature = i
        out.regionOffset = (idNode ?? feature).offset
        out.idHash = id.hashValue
        return out
    }

    /// Ring node `ring` normalized as it is read (`PolygonCheck.normalizedRing`): its positions
    /// as `JSONTape.positions(_:into:)` reads them, nil when it is not an array of positions.
    /// - Complexity: O(positions), one allocation (the normalized ring).
    private static func normalizedRing(_ ring: JSONTape.Value) -> (points: [Coordinate], lo: Double, hi: Double, inRange: Bool)? {
        guard ring.isArray, let count = ring.count else { return nil }
        var points = RingNodes(tape: ring.tape, c: ring.index + 1)
        return PolygonCheck.normalizedRing(count: count, &points)
    }

    /// The items of a ring node read as positions, in order (position nodes in place, others
    /// as `JSONTape.position` reads them).
    private struct RingNodes: PolygonCheck.RingPoints {
        let tape: JSONTape
        /// The next item's node.
        var c: Int

        @inline(__always) mutating func next() -> Coordinate? {
            let node = tape.nodes[c]
            if node.kind == .position {
                c += 1
                return Coordinate(lat: node.latitude, lon: node.number)
            }
            guard let p = tape.position(c) else { return nil }
            c = tape.next(c)
            return p
        }
    }

    /// The properties whose values (strings or numbers, as ids are read) are present, usable and
    /// different in every feature, in the order of the first feature's properties, those named
    /// like ids (`objectid`, `osm_id`) first. Only for the message about features without ids.
    /// - Complexity: O(features x properties of the first feature).
    private static func uniqueProperties(_ features: [JSONNode]) -> [String] {
        guard let first = features.first, let names = first["properties"]?.members?.map(\.name) else { return [] }
        var unique: [String] = []
        for name in names.prefix(100) where !unique.contains(name) {
            var seen = Set<String>()
            var ok = true
            for feature in features {
                guard let t = feature["properties"]?[name]?.text, !t.isEmpty, !hasControlCharacter(t), seen.insert(t).inserted else {
                    ok = false
                    break
                }
            }
            if ok { unique.append(name) }
        }
        let idLike = unique.filter { $0.lowercased().hasSuffix("id") }
        return idLike + unique.filter { !$0.lowercased().hasSuffix("id") }
    }

    func decodeImport(_ f: Fields, entry: Int, scope: CampaignScope) {
        checkKeys(f, known: Self.importKeys, in: "an import")
        let extraTags = decodeTags(f["tags"])
        for t in extraTags { scope.tags.insert(t) }
        guard let pathNode = f["import"], let rel = scalar(pathNode, "import", example: "../regions/stores.geojson") else {
            error(f.key("import")?.mark ?? f.mark, "'import' is empty: write the path of a GeoJSON file, relative to this YAML file")
            scope.regionsIncomplete = true
            return
        }
        let resolved = resolvedImportPath(rel)
        let idProperty = f["id_property"].flatMap { scalar($0, "id_property", example: "ref") }
        let nameProperty = f["name_property"].flatMap { scalar($0, "name_property", example: "title") } ?? "name"
        var radius: Double?
        if let n = f["radius"] { radius = checkedRadius(n) }
        let hyst = f["hysteresis"].flatMap { hysteresis($0) }
        let confirm = f["confirm"].flatMap { duration($0, "confirm") }

        let settings = ImportSettings(extraTags: extraTags, idProperty: idProperty, nameProperty: nameProperty,
                                      radius: radius, hyst: hyst, confirm: confirm)
        // The features are decoded while the file is parsed, each part of a large file on its
        // own thread (`FeatureSink`), and merged in file order: the calling thread's as it
        // decodes them, the other parts' as it takes them over.
        let sink = FeatureSink(settings)
        let merged = FeatureMerge(scope: scope, radius: radius, extraTagCount: extraTags.count, rel: rel, pathMark: pathNode.mark,
                                  entry: entry, campaignPath: file.path)
        sink.merge = merged
        defer { merged.giveBack(to: scope) }
        // When the loader hashes its sources (for a stateful run's fingerprints), the file's
        // bytes are hashed as soon as they are read: under 8 MiB right there, from 8 MiB on on a
        // thread of its own while the features are parsed and decoded (not on the pool, where it
        // would wait behind the parts of a history read beside the loading); the hash is in
        // place when this function returns. (A smaller file hashes in less time than a new
        // thread takes to be scheduled while the history is read on both cores: on M's six
        // imports of at most 490 KB, the campaigns' loading of a stateful run waited 10 ms for
        // their threads.)
        var hashed: BackgroundTask<(UInt64, UInt64)>?
        let hashFrom = scope.sourceHash
        let stream = JSONParser.ItemStream(member: "features", sink: sink, makeSink: { FeatureSink(settings.ownCopy()) })
        let geo: GeoJSONCache.File
        switch imports.file(at: resolved, stream: stream, whenRead: { source in
            // Room for the regions: a feature of a large import takes hundreds of bytes.
            merged.reserve(source.byteCount / 768)
            guard let hashFrom else { return }
            hashed = BackgroundTask(source.byteCount < 8 << 20 ? .here : .ownThread("import-hash")) { () -> (UInt64, UInt64) in
                var h = hashFrom
                source.addBytes(to: &h)
                return h
            }
        }) {
        case .failure(let e):
            merged.undo()
            error(pathNode.mark, "the import '\(rel)' \(e.message)")
            scope.regionsIncomplete = true
            return
        case .success(let file):
            geo = file
        }
        defer { if let hashed { scope.sourceHash = hashed.value } }
        let root = geo.root
        guard root["type"]?.string == "FeatureCollection", let list = root["features"], let items = list.array else {
            merged.undo()
            let t = root["type"]?.string.map { " (its type is '\($0)')" } ?? ""
            error(pathNode.mark, "the import '\(rel)' is not a GeoJSON FeatureCollection\(t): export the regions as a FeatureCollection of Point, Polygon and MultiPolygon features")
            scope.regionsIncomplete = true
            return
        }
        // The features array is the one the parse streamed (the root's first member so named);
        // else (a position in its place, whose numbers are its items) its items are decoded here.
        let streamed = root.document.streamed.flatMap { $0.node == list.index ? $0.items : nil }
        if streamed == nil {
            merged.undo()
            for (k, item) in items.enumerated() { sink.take(item.value, k) }
        }
        let featureCount = streamed ?? items.count
        sink.merge = nil
        var issues = merged.issues
        issues += merged.duplicates
        let pointExample = merged.pointExample
        if let example = pointExample, radius == nil {
            if !f.has("radius") {
                error(pathNode.mark, "'\(rel)' holds Point features (the first is '\(example)'): add a radius to this import to make them circles, e.g. radius: 100m")
            }
            scope.regionsIncomplete = true
        }
        if featureCount == 0 {
            warning(pathNode.mark, "'\(rel)' has no features: it adds no regions")
        }
        func mark(_ issue: FeatureIssue) -> SourceMark { root.document.mark(atOffset: issue.offset) }
        var order: [String] = []
        var groups: [String: [FeatureIssue]] = [:]
        for issue in issues {
            if groups[issue.kind] == nil { order.append(issue.kind) }
            groups[issue.kind, default: []].append(issue)
        }
        for kind in order {
            guard let g = groups[kind], let first = g.first else { continue }
            if kind == "no-id", g.count > 1 {
                // One error for the import, not one per feature (3,463 for a city's restaurants).
                // The streamed features left no nodes: they are read from the text parsed again
                // (only for this message).
                let again = streamed == nil ? items : root.document.reparsed().flatMap { JSONNode(document: $0, index: 0)["features"]?.array }
                let unique = Self.uniqueProperties(again ?? [])
                let how: String
                if let best = unique.first {
                    let others = unique.count > 1 ? " (the properties with a different value in every feature: \(unique.prefix(5).joined(separator: ", ")))" : ""
                    how = idProperty == nil ? "add id_property: \(best)\(others)" : "name another property with id_property:, e.g. id_property: \(best)\(others)"
                } else {
                    how = "no property has a different value in every feature: give each feature an \"id\", or name the property that holds the ids with id_property:"
                }
                let lacking = idProperty.map { "no usable property \"\($0)\" (named by id_property)" } ?? "no usable id"
                let which = g.count == featureCount ? "all \(g.count) features" : "\(g.count) of the \(featureCount) features"
                error(pathNode.mark, "\(which) in '\(rel)' have \(lacking) (the first at line \(mark(first).line) of that file): \(how)")
                continue
            }
            if first.severity == .error {
                for issue in g { geo.source.error(mark(issue), issue.message) }
            } else if g.count == 1 {
                geo.source.warning(mark(first), first.message)
            } else {
                warning(pathNode.mark, "in '\(rel)', \(g.count) features \(first.plural); the first, at line \(mark(first).line): \(first.message)")
            }
        }
    }
}
