import Foundation

extension CampaignDecoder {
    /// One problem with one imported feature. Errors are reported inside the GeoJSON file at
    /// `mark`; warnings too when there is one of a kind, else summarized at the import entry.
    private struct FeatureIssue {
        var severity: Diagnostic.Severity
        /// Groups alike issues.
        var kind: String
        /// The plural phrase for a summary ("cross themselves").
        var plural: String
        /// The full message about this feature.
        var message: String
        /// Where in the GeoJSON file.
        var mark: SourceMark
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
        /// The region, the feature's number (0-based) and the byte offset of the value that
        /// names it (where a duplicate id is reported).
        var added: (Region, Int, Int)?
        /// The region id's `hashValue`, computed on the decoding thread.
        var idHash = 0
    }

    /// The settings of one import entry that every feature is decoded with.
    private struct ImportSettings {
        var extraTags: [String]
        var idProperty: String?
        var nameProperty: String
        var radius: Double?
        var hyst: Double?
        var confirm: Int64?

        /// The same settings in storage of their own (strings and the tag list copied).
        func ownCopy() -> ImportSettings {
            var copy = self
            copy.extraTags = extraTags.map { String(decoding: Array($0.utf8), as: UTF8.self) }
            copy.idProperty = idProperty.map { String(decoding: Array($0.utf8), as: UTF8.self) }
            copy.nameProperty = String(decoding: Array(nameProperty.utf8), as: UTF8.self)
            return copy
        }
    }

    /// The decoded chunks of a large import's features, each taken out by the merging thread
    /// once it is done.
    private final class DecodedChunks: @unchecked Sendable {
        private var chunks: [[FeatureOutcome]?]
        private let lock = NSLock()
        private let ready: [DispatchSemaphore]

        init(count: Int) {
            chunks = Array(repeating: nil, count: count)
            ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }

        func set(_ k: Int, _ outcomes: [FeatureOutcome]) {
            lock.lock()
            chunks[k] = outcomes
            lock.unlock()
            ready[k].signal()
        }

        /// Chunk `k` taken out, leaving none (the caller then holds the only reference): at once
        /// if it is done, else nil, or after waiting for it when `wait`.
        func take(_ k: Int, wait: Bool) -> [FeatureOutcome]? {
            if wait {
                ready[k].wait()
            } else if ready[k].wait(timeout: .now()) == .timedOut {
                return nil
            }
            lock.lock()
            defer { lock.unlock() }
            let out = chunks[k]
            chunks[k] = nil
            return out
        }
    }

    /// Decodes every feature and hands the outcomes to `merge` on the calling thread, chunk by
    /// chunk in feature order, exactly as decoding them one by one. Large files are decoded in
    /// chunks on all cores, and the calling thread merges each chunk as soon as it is done,
    /// decoding chunks itself in between (the merge, one thread's work, ran after all the
    /// chunks were decoded). Decoding in chunks gives back the memory of each chunk's nodes
    /// once it is decoded; the result is then true (the features' nodes are not to be read
    /// again). `end` is the node just past the last feature's.
    /// - Complexity: O(total size of the features), spread over the available cores.
    private static func decodeFeatures(_ features: [JSONNode], end: Int, _ settings: ImportSettings,
                                       merge: (inout [FeatureOutcome]) -> Void) -> Bool {
        let n = features.count
        // 16 chunks per core (at most 32): the merge of the last chunks is what is left on one
        // thread at the end (with 4 per core, a quarter of the merge ran after the decoding).
        let chunkCount = n < 4_096 ? 1 : min(32, max(1, ProcessInfo.processInfo.activeProcessorCount * 16))
        if chunkCount == 1 {
            var scratch: [[Coordinate]] = []
            var all = features.indices.map { decodeFeature($0, features[$0], settings, &scratch) }
            merge(&all)
            return false
        }
        let claims = ChunkClaims(count: chunkCount)
        let decoded = DecodedChunks(count: chunkCount)
        // Each thread works on its own copy of the settings, so that the reference counts it
        // touches per feature are its own, not shared with the other threads.
        func decode(_ c: Int, _ own: ImportSettings, _ scratch: inout [[Coordinate]]) {
            let lo = n * c / chunkCount, hi = n * (c + 1) / chunkCount
            let outcomes = (lo..<hi).map { decodeFeature($0, features[$0], own, &scratch) }
            if lo < hi { features[lo].document.releaseNodes(features[lo].index..<(hi < n ? features[hi].index : end)) }
            decoded.set(c, outcomes)
        }
        var merged = 0
        func mergeDone(wait: Bool) {
            while merged < chunkCount, var chunk = decoded.take(merged, wait: wait) {
                merge(&chunk)
                merged += 1
            }
        }
        ChunkClaims.run(onCaller: {
            let own = settings.ownCopy()
            var scratch: [[Coordinate]] = []
            while true {
                mergeDone(wait: false)
                guard let c = claims.next() else { break }
                decode(c, own, &scratch)
            }
            mergeDone(wait: true)
        }, others: {
            let own = settings.ownCopy()
            var scratch: [[Coordinate]] = []
            while let c = claims.next() { decode(c, own, &scratch) }
        })
        return true
    }

    /// Decodes feature `i` (0-based) of an import. The rings as written are read into `scratch`,
    /// reused from feature to feature: only the normalized rings, which the region keeps, are
    /// allocated per feature (a fresh copy of every ring as written, freed among the kept ones,
    /// left the heap full of holes: about 50 MB with 100k polygons).
    private static func decodeFeature(_ i: Int, _ feature: JSONNode, _ settings: ImportSettings, _ scratch: inout [[Coordinate]]) -> FeatureOutcome {
        var out = FeatureOutcome()
        let extraTags = settings.extraTags, idProperty = settings.idProperty, nameProperty = settings.nameProperty
        let radius = settings.radius, hyst = settings.hyst, confirm = settings.confirm
        guard feature.isObject else {
            out.issues.append(FeatureIssue(severity: .error, kind: "not-object", plural: "are not GeoJSON Feature objects",
                                       message: "feature \(i + 1) is not a GeoJSON Feature object", mark: feature.mark))
            return out
        }
        let props = feature["properties"]
        let idNode: JSONNode?
        let id: String?
        if let p = idProperty {
            idNode = props?[p]
            id = idNode?.text
        } else if let n = feature["id"], let t = n.text {
            idNode = n
            id = t
        } else {
            idNode = props?["id"]
            id = idNode?.text
        }
        lazy var label = id.map { "feature \(i + 1) ('\($0)')" } ?? "feature \(i + 1)"
        guard let id, !id.isEmpty, !Self.hasControlCharacter(id) else {
            let how = idProperty.map { "give it a property \"\($0)\" (named by id_property)" }
                ?? "give it an \"id\" or a property \"id\", or name the property that holds its id with id_property: in the import"
            out.issues.append(FeatureIssue(severity: .error, kind: "no-id", plural: "have no usable id",
                                       message: "\(label) has no usable id: \(how)", mark: idNode?.mark ?? feature.mark))
            return out
        }
        let name = props?[nameProperty]?.text
        var tags = extraTags
        if let t = props?["tags"] {
            if let strings = t.strings {
                tags.reserveCapacity(extraTags.count + strings.count)
                for s in strings where !s.isEmpty && !tags.contains(s) { tags.append(s) }
            } else if t.isNull {
            } else {
                out.issues.append(FeatureIssue(severity: .error, kind: "bad-tags", plural: "have tags that are not a list of strings",
                                           message: "\(label) has \"tags\" that are not a list of strings: write \"tags\": [\"a\", \"b\"]", mark: t.mark))
            }
        }
        guard let geometry = feature["geometry"], geometry.isObject, let type = geometry["type"]?.string else {
            out.issues.append(FeatureIssue(severity: .error, kind: "no-geometry", plural: "have no geometry",
                                       message: "\(label) has no geometry: give it a Point, Polygon or MultiPolygon", mark: feature["geometry"]?.mark ?? feature.mark))
            return out
        }
        let coords = geometry["coordinates"]
        lazy var coordsMark = coords?.mark ?? geometry.mark
        var shape: Region.Shape?
        switch type {
        case "Point":
            guard let c = coords, let p = c.position else {
                out.issues.append(FeatureIssue(severity: .error, kind: "bad-coords", plural: "have malformed coordinates",
                                           message: "\(label) has malformed coordinates: a Point is [longitude, latitude]", mark: coordsMark))
                return out
            }
            guard Self.inRange(p) else {
                out.issues.append(FeatureIssue(severity: .error, kind: "range", plural: "have positions out of range",
                                           message: Self.rangeMessage(label, p), mark: c.mark))
                return out
            }
            out.pointId = id
            shape = .circle(center: p, radiusM: radius ?? 0)
        case "Polygon", "MultiPolygon":
            var polys: [JSONNode] = []
            if type == "Polygon" {
                if let c = coords { polys = [c] }
            } else if let mp = coords?.array {
                polys = mp
            }
            var parts: [Region.PolygonPart] = []
            var malformed = polys.isEmpty
            var fatal = false
            for (pi, poly) in polys.enumerated() {
                guard let ringNodes = poly.array, !ringNodes.isEmpty else { malformed = true; break }
                var read = 0
                for r in ringNodes {
                    if read == scratch.count { scratch.append([]) }
                    guard r.positions(into: &scratch[read]) else { break }
                    read += 1
                }
                guard read == ringNodes.count else { malformed = true; break }
                let rs = Array(scratch[0..<read])
                if let (r, k) = Self.firstOutOfRange(rs) {
                    out.issues.append(FeatureIssue(severity: .error, kind: "range", plural: "have positions out of range",
                                               message: Self.rangeMessage(label, rs[r][k]), mark: ringNodes[r].itemMark(k)))
                    fatal = true
                    break
                }
                lazy var subject = polys.count > 1 ? "part \(pi + 1) of \(label)" : label
                let (problems, normalized) = PolygonCheck.check(rs)
                for p in problems {
                    switch p {
                    case .crossing(_, _, _, let rb, let fb, _):
                        let at = rs[rb][fb]
                        out.issues.append(FeatureIssue(severity: .warning, kind: "crossing", plural: "cross themselves",
                                                   message: p.message(subject: subject, place: " near \(at.lat), \(at.lon)")
                                                       + "; inside and outside follow the even-odd rule",
                                                   mark: ringNodes[rb].itemMark(fb)))
                    case .tooFewPoints(let r, _):
                        out.issues.append(FeatureIssue(severity: .error, kind: "polygon", plural: "are not valid polygons",
                                                   message: p.message(subject: subject), mark: ringNodes[r].mark))
                        fatal = true
                    case .tooWide:
                        out.issues.append(FeatureIssue(severity: .error, kind: "polygon", plural: "are not valid polygons",
                                                   message: p.message(subject: subject), mark: ringNodes[0].mark))
                        fatal = true
                    case .holeOutside(let h, let pt):
                        out.issues.append(FeatureIssue(severity: .error, kind: "polygon", plural: "are not valid polygons",
                                                   message: p.message(subject: subject), mark: ringNodes[h].itemMark(pt)))
                        fatal = true
                    }
                }
                parts.append(Region.PolygonPart(outer: normalized[0], holes: Array(normalized.dropFirst())))
            }
            if malformed {
                out.issues.append(FeatureIssue(severity: .error, kind: "bad-coords", plural: "have malformed coordinates",
                                           message: "\(label) has malformed \(type) coordinates: rings are lists of [longitude, latitude] positions",
                                           mark: coordsMark))
                return out
            }
            if fatal { return out }
            shape = .polygon(parts)
        default:
            out.issues.append(FeatureIssue(severity: .error, kind: "type-\(type)", plural: "are \(type) features, which cannot be regions",
                                       message: "\(label) is a \(type): only Point, Polygon and MultiPolygon features can be regions",
                                       mark: geometry["type"]?.mark ?? geometry.mark))
            return out
        }
        guard let shape else { return out }
        out.added = ((Region(id: id, name: name, tags: tags, shape: shape, hysteresisM: hyst, confirmMs: confirm), i, (idNode ?? feature).offset))
        out.idHash = id.hashValue
        return out
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

        let geo: GeoJSONCache.File
        switch imports.file(at: resolved) {
        case .failure(let e):
            error(pathNode.mark, "the import '\(rel)' \(e.message)")
            scope.regionsIncomplete = true
            return
        case .success(let file):
            geo = file
        }
        // When the loader hashes its sources (for a stateful run's fingerprints), the file's
        // bytes are hashed here, or, from 8 MiB on, on a thread of its own while the features
        // are decoded (not on the pool, where it would wait behind the parts of a history read
        // beside the loading); the hash is in place when this function returns. (A smaller
        // file hashes in less time than a new thread takes to be scheduled while the history
        // is read on both cores: on M's six imports of at most 490 KB, the campaigns' loading
        // of a stateful run waited 10 ms for their threads.)
        let hashed = scope.sourceHash.map { hashFrom in
            let source = geo.source
            return BackgroundTask(source.byteCount < 8 << 20 ? .here : .ownThread("import-hash")) { () -> (UInt64, UInt64) in
                var h = hashFrom
                source.addBytes(to: &h)
                return h
            }
        }
        defer { if let hashed { scope.sourceHash = hashed.value } }
        imports.release(resolved)
        // The features are decoded through unretained handles (no reference counting shared by
        // the decoding threads); `geo` keeps the document alive until this function returns.
        defer { withExtendedLifetime(geo) {} }
        let root = geo.root.unretained
        guard root["type"]?.string == "FeatureCollection", let list = root["features"], let features = list.array else {
            let t = root["type"]?.string.map { " (its type is '\($0)')" } ?? ""
            error(pathNode.mark, "the import '\(rel)' is not a GeoJSON FeatureCollection\(t): export the regions as a FeatureCollection of Point, Polygon and MultiPolygon features")
            scope.regionsIncomplete = true
            return
        }
        var issues: [FeatureIssue] = []
        var duplicates: [FeatureIssue] = []
        var pointExample: String?
        let settings = ImportSettings(extraTags: extraTags, idProperty: idProperty, nameProperty: nameProperty,
                                      radius: radius, hyst: hyst, confirm: confirm)
        // Room for this import's regions, growing geometrically: several large imports in a row
        // must not each rehash or copy everything the ones before added.
        let most = features.count
        if scope.regionIds.capacity < scope.regionIds.count + most {
            scope.regionIds.reserveCapacity(max(scope.regionIds.count + most, 2 * scope.regionIds.capacity))
        }
        if scope.regions.capacity < scope.regions.count + most {
            scope.regions.reserveCapacity(max(scope.regions.count + most, 2 * scope.regions.capacity))
        }
        if scope.origins.capacity < scope.origins.count + most {
            scope.origins.reserveCapacity(max(scope.origins.count + most, 2 * scope.origins.capacity))
        }
        let line = pathNode.mark.line
        // Outcomes are moved out of their chunk (swapped with empty ones), not copied.
        let released = Self.decodeFeatures(features, end: root.tape.next(list.index), settings) { chunk in
            for k in chunk.indices {
                var outcome = FeatureOutcome()
                swap(&outcome, &chunk[k])
                issues += outcome.issues
                if pointExample == nil, let p = outcome.pointId { pointExample = p }
                var taken: (Region, Int, Int)?
                swap(&taken, &outcome.added)
                guard let (region, feature, markOffset) = consume taken else { continue }
                // Without a radius, Points make no regions (reported below).
                if radius == nil, case .circle = region.shape { continue }
                if let first = scope.regionIds.insert(region.id, .imported(feature: feature + 1, id: region.id, file: rel, line: line), hash: outcome.idHash) {
                    let label = "feature \(feature + 1) ('\(region.id)')"
                    duplicates.append(FeatureIssue(severity: .error, kind: "dup", plural: "have ids already used in this campaign",
                                                   message: "\(label) has the id '\(region.id)', already used \(first.words) in \(file.path): region ids must be unique in a campaign (use id_property: to pick another property)",
                                                   mark: root.document.mark(atOffset: markOffset)))
                    continue
                }
                // The import's own tags were added above; only a feature's extra tags are new.
                if region.tags.count > extraTags.count {
                    for t in region.tags.dropFirst(extraTags.count) { scope.tags.insert(t) }
                }
                scope.regions.append(region)
                scope.origins.append(.imported(entry: entry, mark: pathNode.mark, file: rel))
            }
        }
        issues += duplicates
        if let example = pointExample, radius == nil {
            if !f.has("radius") {
                error(pathNode.mark, "'\(rel)' holds Point features (the first is '\(example)'): add a radius to this import to make them circles, e.g. radius: 100m")
            }
            scope.regionsIncomplete = true
        }
        if features.isEmpty {
            warning(pathNode.mark, "'\(rel)' has no features: it adds no regions")
        }
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
                // Decoding in chunks gave back the features' nodes: they are read from the text
                // parsed again (only for this message).
                let again = released ? root.document.reparsed().flatMap { JSONNode(document: $0, index: 0)["features"]?.array } : features
                let unique = Self.uniqueProperties(again ?? [])
                let how: String
                if let best = unique.first {
                    let others = unique.count > 1 ? " (the properties with a different value in every feature: \(unique.prefix(5).joined(separator: ", ")))" : ""
                    how = idProperty == nil ? "add id_property: \(best)\(others)" : "name another property with id_property:, e.g. id_property: \(best)\(others)"
                } else {
                    how = "no property has a different value in every feature: give each feature an \"id\", or name the property that holds the ids with id_property:"
                }
                let lacking = idProperty.map { "no usable property \"\($0)\" (named by id_property)" } ?? "no usable id"
                let which = g.count == features.count ? "all \(g.count) features" : "\(g.count) of the \(features.count) features"
                error(pathNode.mark, "\(which) in '\(rel)' have \(lacking) (the first at line \(first.mark.line) of that file): \(how)")
                continue
            }
            if first.severity == .error {
                for issue in g { geo.source.error(issue.mark, issue.message) }
            } else if g.count == 1 {
                geo.source.warning(first.mark, first.message)
            } else {
                warning(pathNode.mark, "in '\(rel)', \(g.count) features \(first.plural); the first, at line \(first.mark.line): \(first.message)")
            }
        }
    }
}
