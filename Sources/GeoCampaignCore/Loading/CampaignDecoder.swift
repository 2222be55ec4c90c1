import Foundation

/// Decodes one YAML file's node tree into a campaign or the settings, recording every problem
/// in its `SourceFile` (formats.md 1.1-1.6).
final class CampaignDecoder {
    /// What a file turned out to hold.
    enum Content {
        case campaign(Campaign, idMark: SourceMark)
        case settings(Settings, mark: SourceMark)
        case nothing
    }

    let file: SourceFile
    /// Folder of the YAML file, for import paths ("" for the current folder).
    let directory: String
    let imports: GeoJSONCache
    /// Whether the bytes of the campaign and its imports are hashed into `Campaign.sourceHash`.
    let hashesSources: Bool
    /// Time zones written as fixed offsets, reported when the regions are known.
    var pendingZones: [PendingZone] = []

    init(file: SourceFile, imports: GeoJSONCache, hashesSources: Bool) {
        self.file = file
        self.imports = imports
        self.hashesSources = hashesSources
        let path = file.path
        if let slash = path.lastIndex(of: "/") {
            directory = String(path[..<slash]).isEmpty ? "/" : String(path[..<slash])
        } else {
            directory = ""
        }
    }

    // MARK: - Reporting helpers

    func error(_ mark: SourceMark, _ message: String) { file.error(mark, message) }
    func warning(_ mark: SourceMark, _ message: String) { file.warning(mark, message) }

    /// The mapping's fields, or an error saying a mapping was expected.
    func fields(_ node: YAMLNode, _ what: String, example: String) -> Fields? {
        if let p = node.pairs { return Fields(node, p) }
        error(node.mark, "\(what) must be a mapping of keys and values, not \(node.kindWord): write for example \(example)")
        return nil
    }

    /// Reports keys not in `known`, suggesting the nearest known key.
    func checkKeys(_ f: Fields, known: [String], in what: String) {
        for p in f.pairs {
            guard let k = p.key.scalar, !known.contains(k) else { continue }
            if let hint = MisplacedKeys.hint(k, in: what) {
                error(p.key.mark, "unexpected key '\(k)' in \(what): \(hint)")
            } else if let s = EditDistance.suggestion(for: k, among: known) {
                error(p.key.mark, "unknown key '\(k)' in \(what): did you mean '\(s)'?")
            } else {
                error(p.key.mark, "unknown key '\(k)' in \(what): the keys allowed here are \(known.joined(separator: ", "))")
            }
        }
    }

    /// A single value's text, or an error if the node is a list or mapping.
    func scalar(_ node: YAMLNode, _ key: String, example: String) -> String? {
        if let s = node.scalar { return s }
        error(node.mark, "'\(key)' takes a single value, not \(node.kindWord): write for example \(key): \(example)")
        return nil
    }

    /// A list of single values with their marks; a single value is an error that shows the list form.
    func scalarList(_ node: YAMLNode, _ key: String, example: String) -> [(String, SourceMark)]? {
        guard let items = node.items else {
            if let s = node.scalar {
                error(node.mark, "'\(key)' takes a list: write \(key): [\(s)]")
            } else {
                error(node.mark, "'\(key)' takes a list of names, not \(node.kindWord): write for example \(key): \(example)")
            }
            return nil
        }
        var out: [(String, SourceMark)] = []
        for item in items {
            if item.isNull {
                error(item.mark, "an item of '\(key)' is empty: write a name there, in quotes if it is a word like null or ~")
                continue
            }
            guard let s = item.scalar else {
                error(item.mark, "each item of '\(key)' must be a single name, not \(item.kindWord): write for example \(key): \(example)")
                continue
            }
            out.append((s, item.mark))
        }
        return out
    }

    /// Checks a region/rule/offer id or tag: non-empty, no control characters.
    func checkName(_ s: String, _ mark: SourceMark, _ what: String) -> Bool {
        if s.isEmpty {
            error(mark, "\(what) cannot be empty: write a name")
            return false
        }
        if s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            let shown = s.unicodeScalars.map { u -> String in
                guard u.properties.generalCategory == .control else { return String(u) }
                switch u {
                case "\t": return "\\t"
                case "\n": return "\\n"
                case "\r": return "\\r"
                default: return "\\u{\(String(u.value, radix: 16))}"
                }
            }.joined()
            error(mark, "\(what) '\(shown)' contains a control character (such as a tab or line break): remove it")
            return false
        }
        return true
    }

    /// A duration value in ms, or nil after reporting.
    func duration(_ node: YAMLNode, _ key: String) -> Int64? {
        guard let s = scalar(node, key, example: "30m") else { return nil }
        do {
            return try ValueParser.duration(s)
        } catch {
            self.error(node.mark, "\(key): \(error.message)")
            return nil
        }
    }

    /// A distance value in meters, or nil after reporting.
    func distance(_ node: YAMLNode, _ key: String) -> Double? {
        guard let s = scalar(node, key, example: "100m") else { return nil }
        do {
            return try ValueParser.distance(s)
        } catch {
            self.error(node.mark, "\(key): \(error.message)")
            return nil
        }
    }

    /// A time zone name that Foundation knows, or nil after reporting.
    func timezone(_ node: YAMLNode) -> String? {
        guard let s = scalar(node, "timezone", example: "America/Los_Angeles") else { return nil }
        if let offset = Self.fixedOffset(s) {
            pendingZones.append(PendingZone(mark: node.mark, text: s, offsetSeconds: offset))
            return nil
        }
        if TimeZone(identifier: s) != nil { return s }
        let shown = ValueParser.shown(s)
        var message = "unknown time zone '\(shown)': write an IANA name such as America/Los_Angeles, Europe/Paris or UTC"
        if let near = EditDistance.suggestion(for: s, among: TimeZone.knownTimeZoneIdentifiers) {
            message = "unknown time zone '\(shown)': did you mean '\(near)'?"
        }
        error(node.mark, message)
        return nil
    }

    /// A coordinate written `"lat, lon"` or `{lat, lon}`, range-checked; nil after reporting.
    func coordinate(_ node: YAMLNode, _ what: String) -> Coordinate? {
        let c: Coordinate
        switch node.kind {
        case .sequence(let items):
            let nums = items.compactMap { $0.scalar.flatMap(ValueParser.decimal) }
            if nums.count == 2 {
                let a = ValueParser.fmt(nums[0]), b = ValueParser.fmt(nums[1])
                error(node.mark, "\(what) is written as a list [\(a), \(b)], which is ambiguous (GeoJSON puts longitude first, map apps latitude first): write \"\(a), \(b)\" if \(a) is the latitude, or \"\(b), \(a)\" if it is the longitude")
            } else {
                error(node.mark, "\(what) is written as a list, which is ambiguous (GeoJSON puts longitude first): write \"lat, lon\" in quotes, e.g. \"37.703026, -121.759735\"")
            }
            return nil
        case .mapping(let pairs):
            let f = Fields(node, pairs)
            checkKeys(f, known: ["lat", "lon"], in: "a coordinate")
            guard let latNode = f["lat"], let lonNode = f["lon"] else {
                error(f.mark, "\(what) needs both lat and lon: write { lat: 37.703026, lon: -121.759735 }")
                return nil
            }
            var lat: Double?, lon: Double?
            if let s = scalar(latNode, "lat", example: "37.703026") {
                lat = ValueParser.decimal(s)
                if lat == nil { error(latNode.mark, "lat: '\(s)' is not a number: write degrees as a decimal number, e.g. 37.703026") }
            }
            if let s = scalar(lonNode, "lon", example: "-121.759735") {
                lon = ValueParser.decimal(s)
                if lon == nil { error(lonNode.mark, "lon: '\(s)' is not a number: write degrees as a decimal number, e.g. -121.759735") }
            }
            guard let la = lat, let lo = lon else { return nil }
            if !(-90.0...90.0).contains(la) {
                error(latNode.mark, "latitude \(ValueParser.fmt(la)) is out of range: it must be between -90 and 90")
                return nil
            }
            if !(-180.0...180.0).contains(lo) {
                error(lonNode.mark, "longitude \(ValueParser.fmt(lo)) is out of range: it must be between -180 and 180")
                return nil
            }
            return Coordinate(lat: la, lon: lo)
        case .scalar(let s, _):
            do {
                c = try ValueParser.coordinate(s)
            } catch {
                self.error(node.mark, "\(what): \(error.message)")
                return nil
            }
        }
        if !(-90.0...90.0).contains(c.lat) {
            if (-90.0...90.0).contains(c.lon) {
                error(node.mark, "latitude \(ValueParser.fmt(c.lat)) is out of range (-90 to 90): write \"lat, lon\" with the latitude first, e.g. \"\(ValueParser.fmt(c.lon)), \(ValueParser.fmt(c.lat))\"")
            } else {
                error(node.mark, "latitude \(ValueParser.fmt(c.lat)) is out of range: it must be between -90 and 90")
            }
            return nil
        }
        if !(-180.0...180.0).contains(c.lon) {
            error(node.mark, "longitude \(ValueParser.fmt(c.lon)) is out of range: it must be between -180 and 180")
            return nil
        }
        return c
    }

    // MARK: - Top level

    /// Decodes the document root.
    func decode(_ root: YAMLNode) -> Content {
        if root.isNull {
            error(SourceMark(line: 1, column: 1), "the file has no content: a campaign file starts with 'campaign: <id>', a settings file with 'settings:'")
            return .nothing
        }
        guard let pairs = root.pairs else {
            error(root.mark, "a campaign file is a mapping that starts with 'campaign: <id>' (a settings file with 'settings:'), not \(root.kindWord)")
            return .nothing
        }
        let f = Fields(root, pairs)
        if f.has("campaign") {
            if let s = f.key("settings") {
                error(s.mark, "a file holds either a campaign or the settings, not both: move 'settings:' to a file of its own")
            }
            return decodeCampaign(f)
        }
        if let key = f.key("settings") {
            checkKeys(f, known: ["settings"], in: "the settings file")
            guard let node = f["settings"] else {
                error(key.mark, "'settings' is empty: add limits: or tracking: under it")
                return .settings(Settings(), mark: key.mark)
            }
            return .settings(decodeSettings(node), mark: key.mark)
        }
        let first = pairs.first?.key.scalar ?? ""
        if let s = EditDistance.suggestion(for: first, among: ["campaign", "settings"]), let k = pairs.first?.key {
            error(k.mark, "unknown key '\(first)': did you mean '\(s)'? (a campaign file starts with 'campaign: <id>', a settings file with 'settings:')")
        } else {
            error(f.mark, "this file is neither a campaign nor the settings: a campaign file starts with 'campaign: <id>', a settings file with 'settings:'")
        }
        return .nothing
    }

    // MARK: - Settings and tracking

    func decodeSettings(_ node: YAMLNode) -> Settings {
        var settings = Settings()
        guard let f = fields(node, "'settings'", example: "settings: { limits: { per_user: 2 per 24h } }") else { return settings }
        checkKeys(f, known: ["limits", "tracking"], in: "settings")
        if let l = f["limits"], let lf = fields(l, "'limits'", example: "limits: { per_user: 2 per 24h }") {
            checkKeys(lf, known: ["per_user"], in: "limits")
            if let p = lf["per_user"], let s = scalar(p, "per_user", example: "2 per 24h") {
                do {
                    settings.perUserLimit = try ValueParser.cap(s)
                } catch {
                    self.error(p.mark, "per_user: \(error.message)")
                }
            }
        }
        if let t = f["tracking"] { settings.tracking = decodeTracking(t) }
        return settings
    }

    func decodeTracking(_ node: YAMLNode) -> Tracking {
        var t = Tracking()
        guard let f = fields(node, "'tracking'", example: "tracking: { hysteresis: 20m, confirm: 20s }") else { return t }
        checkKeys(f, known: ["hysteresis", "confirm", "max_accuracy", "max_gap"], in: "tracking")
        if let n = f["hysteresis"] { t.hysteresisM = hysteresis(n) }
        if let n = f["confirm"] { t.confirmMs = duration(n, "confirm") }
        if let n = f["max_accuracy"], let v = distance(n, "max_accuracy") {
            if v > 0 { t.maxAccuracyM = v } else { error(n.mark, "max_accuracy must be more than 0 m, e.g. 100m") }
        }
        if let n = f["max_gap"], let v = duration(n, "max_gap") {
            if v > 0 { t.maxGapMs = v } else { error(n.mark, "max_gap must be longer than 0s, e.g. 30m") }
        }
        return t
    }

    /// A hysteresis distance, >= 0.
    func hysteresis(_ node: YAMLNode) -> Double? {
        guard let v = distance(node, "hysteresis") else { return nil }
        if v < 0 {
            error(node.mark, "hysteresis cannot be negative: write a distance such as 20m")
            return nil
        }
        return v
    }
}
