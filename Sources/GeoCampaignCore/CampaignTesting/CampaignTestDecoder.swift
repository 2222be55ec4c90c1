import Foundation

/// Reads a campaign test file (YAML) into a `CampaignTestFile`, recording every problem with
/// its line and column as `validate` prints them (formats.md 1.6 style): unknown keys suggest
/// the nearest known one, times and durations are checked once the zone is known (by the runner).
final class CampaignTestDecoder {
    let file: SourceFile
    /// The test file's folder ("" for the current one), for relative paths.
    let directory: String

    init(file: SourceFile) {
        self.file = file
        if let slash = file.path.lastIndex(of: "/") {
            let d = String(file.path[..<slash])
            directory = d.isEmpty ? "/" : d
        } else {
            directory = ""
        }
    }

    /// Reads `path`; the file's diagnostics come back in `diagnostics` (nil model when it cannot be read at all).
    static func load(path: String) -> (CampaignTestFile?, [Diagnostic]) {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFREG {
                return (nil, [Diagnostic(severity: .error, path: path, line: 0, column: 0,
                                         message: "not a regular file (a named pipe, device or socket): name a test file or folder")])
            }
            if Int64(info.st_size) > Int64(CampaignLoader.maxFileBytes) {
                let mib = String(format: "%.1f", Double(info.st_size) / 1_048_576)
                return (nil, [Diagnostic(severity: .error, path: path, line: 1, column: 1,
                                         message: "the file is \(mib) MiB, more than the 10 MiB a test file may have, as a campaign file: split it, or keep long histories in a `file:` item")])
            }
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= CampaignLoader.maxFileBytes else {
            return (nil, [Diagnostic(severity: .error, path: path, line: 0, column: 0, message: "cannot read this test file: check the path and its permissions")])
        }
        let bytes = [UInt8](data)
        let source = SourceFile(path: path, bytes: bytes)
        let parser = YAMLParser(bytes: bytes)
        var model: CampaignTestFile?
        do {
            let root = try parser.parse()
            for p in parser.problems { source.error(p.mark, p.message) }
            model = CampaignTestDecoder(file: source).decode(root)
        } catch {
            source.error(error.mark, error.message)
        }
        return (source.hasErrors ? nil : model, source.sortedDiagnostics)
    }

    /// A path relative to the test file's folder (absolute paths as written).
    func resolve(_ p: String) -> String {
        if p.hasPrefix("/") || directory.isEmpty { return p }
        return directory + "/" + p
    }

    func error(_ mark: SourceMark, _ message: String) { file.error(mark, message) }

    func fields(_ node: YAMLNode, _ what: String, known: [String], example: String) -> Fields? {
        guard let p = node.pairs else {
            error(node.mark, "\(what) must be a mapping of keys and values, not \(node.kindWord): write for example \(example)")
            return nil
        }
        let f = Fields(node, p)
        for pair in f.pairs {
            guard let k = pair.key.scalar, !known.contains(k) else { continue }
            if let s = EditDistance.suggestion(for: k, among: known) {
                error(pair.key.mark, "unknown key '\(k)' in \(what): did you mean '\(s)'?")
            } else {
                error(pair.key.mark, "unknown key '\(k)' in \(what): the keys allowed here are \(known.joined(separator: ", "))")
            }
        }
        return f
    }

    func text(_ f: Fields, _ key: String, in what: String, required: Bool = true, example: String) -> String? {
        guard let node = f[key] else {
            if required { error(f.mark, "\(what) needs '\(key)': write for example \(key): \(example)") }
            return nil
        }
        guard let s = node.scalar else {
            error(node.mark, "'\(key)' takes a single value, not \(node.kindWord): write for example \(key): \(example)")
            return nil
        }
        return s
    }

    func time(_ f: Fields, _ key: String, in what: String, required: Bool = true) -> TestTime? {
        guard let node = f[key] else {
            if required { error(f.mark, "\(what) needs '\(key)': write for example \(key): 2026-11-17 12:30 (local time in the campaigns' zone)") }
            return nil
        }
        guard let s = node.scalar else {
            error(node.mark, "'\(key)' takes a time, not \(node.kindWord): write for example \(key): 2026-11-17 12:30")
            return nil
        }
        return TestTime(text: s, mark: node.mark)
    }

    func duration(_ f: Fields, _ key: String, in what: String, required: Bool = true, positive: Bool = true) -> Int64? {
        guard let s = text(f, key, in: what, required: required, example: "30m"), let node = f[key] else { return nil }
        do {
            let ms = try ValueParser.duration(s)
            if positive && ms <= 0 { error(node.mark, "\(key): must be more than 0s"); return nil }
            return ms
        } catch {
            self.error(node.mark, "\(key): \(error.message)")
            return nil
        }
    }

    /// The whole file.
    func decode(_ root: YAMLNode) -> CampaignTestFile? {
        guard let f = fields(root, "a test file", known: ["campaigns", "timezone", "cases"], example: "campaigns: [../my-campaign.yaml]") else { return nil }
        var campaigns: [String] = []
        var marks: [SourceMark] = []
        if let node = f["campaigns"] {
            if let s = node.scalar {
                campaigns = [resolve(s)]
                marks = [node.mark]
            } else if let items = node.items {
                for item in items {
                    guard let s = item.scalar, !item.isNull else {
                        error(item.mark, "each item of 'campaigns' is a path to a campaign file or folder, relative to this test file")
                        continue
                    }
                    campaigns.append(resolve(s))
                    marks.append(item.mark)
                }
            } else {
                error(node.mark, "'campaigns' takes a path or a list of paths, relative to this test file: write for example campaigns: [../my-campaign.yaml]")
            }
            if campaigns.isEmpty && node.items != nil { error(node.mark, "'campaigns' is empty: name at least one campaign file or folder") }
        } else {
            error(f.mark, "a test file names the campaigns it tests: write for example campaigns: [../my-campaign.yaml] (paths relative to this file)")
        }
        var zone: String?
        var zoneMark: SourceMark?
        if let z = text(f, "timezone", in: "a test file", required: false, example: "Europe/Zurich"), let node = f["timezone"] {
            if LocalTimeFormat(zone: z) == nil {
                error(node.mark, "timezone: '\(z)' is not an IANA time zone name such as Europe/Zurich or America/Los_Angeles")
            } else {
                zone = z
                zoneMark = node.mark
            }
        }
        var cases: [CampaignTestCase] = []
        if let node = f["cases"] {
            if let items = node.items {
                if items.isEmpty { error(node.mark, "'cases' is empty: write at least one case with a name, a history and expectations") }
                for item in items { if let c = decodeCase(item) { cases.append(c) } }
            } else {
                error(node.mark, "'cases' takes a list of cases, each starting with '- name: ...'")
            }
        } else {
            error(f.mark, "a test file needs 'cases': a list of cases, each with a name, a history and expectations")
        }
        return CampaignTestFile(path: file.path, campaignPaths: campaigns, campaignMarks: marks, timezone: zone, timezoneMark: zoneMark,
                                cases: cases, source: file)
    }

    func decodeCase(_ node: YAMLNode) -> CampaignTestCase? {
        guard let f = fields(node, "a case", known: ["name", "history", "expect", "until", "now"], example: "- name: Dina gets the loyalty offer") else { return nil }
        let name = text(f, "name", in: "a case", example: "Dina gets the loyalty offer") ?? ""
        if f["until"] != nil && f["now"] != nil { error(f.key("now")?.mark ?? f.mark, "a case takes 'until' or 'now' (the same thing), not both") }
        let until = time(f, "until", in: "a case", required: false) ?? time(f, "now", in: "a case", required: false)
        var history: [TestHistoryItem] = []
        if let h = f["history"] {
            if let items = h.items {
                for item in items { if let i = decodeHistoryItem(item) { history.append(i) } }
            } else {
                error(h.mark, "'history' takes a list: of '- stay: {...}', '- trip: {...}', '- fixes: |' lines or '- file: PATH'")
            }
        } else {
            error(f.mark, "a case needs 'history': a list of stays, trips, fix lines or files")
        }
        var expectations: [TestExpectation] = []
        if let e = f["expect"] {
            if let items = e.items {
                for item in items { if let x = decodeExpectation(item) { expectations.append(x) } }
            } else {
                error(e.mark, "'expect' takes a list: of '- decision: {...}', '- absent: {...}' or '- visit: {...}'")
            }
        } else {
            error(f.mark, "a case needs 'expect': a list of decisions, absent decisions or visits")
        }
        return CampaignTestCase(name: name, mark: f.mark, history: history, until: until, expectations: expectations)
    }

    /// The single key of a `- kind: {...}` item and its value.
    func single(_ node: YAMLNode, _ what: String, kinds: [String]) -> (String, YAMLNode, SourceMark)? {
        guard let pairs = node.pairs, pairs.count == 1, let k = pairs[0].key.scalar else {
            error(node.mark, "each item of '\(what)' is one of \(kinds.map { "'\($0): ...'" }.joined(separator: ", "))")
            return nil
        }
        guard kinds.contains(k) else {
            let hint = EditDistance.suggestion(for: k, among: kinds).map { "did you mean '\($0)'?" } ?? "write one of \(kinds.joined(separator: ", "))"
            error(pairs[0].key.mark, "unknown item '\(k)' in '\(what)': \(hint)")
            return nil
        }
        return (k, pairs[0].value, pairs[0].key.mark)
    }

    func decodeHistoryItem(_ node: YAMLNode) -> TestHistoryItem? {
        guard let (kind, value, _) = single(node, "history", kinds: ["stay", "trip", "fixes", "file"]) else { return nil }
        switch kind {
        case "fixes":
            guard let s = value.scalar else {
                error(value.mark, "'fixes' takes JSON Lines as a block: write 'fixes: |' and one {\"user\": ..., \"ts\": ..., \"lat\": ..., \"lon\": ...} per line below it")
                return nil
            }
            let block = value.scalarStyle == .literal || value.scalarStyle == .folded
            return .lines(text: s, firstLine: value.mark.line + (block ? 1 : 0), mark: value.mark)
        case "file":
            if let s = value.scalar { return .file(path: resolve(s), user: nil, mark: value.mark) }
            guard let f = fields(value, "a file", known: ["path", "user"], example: "{ path: drive.gpx, user: dina }"),
                  let p = text(f, "path", in: "a file", example: "drive.gpx") else { return nil }
            return .file(path: resolve(p), user: text(f, "user", in: "a file", required: false, example: "dina"), mark: value.mark)
        case "stay":
            let what = "a stay"
            guard let f = fields(value, what, known: ["user", "at", "from", "for", "every", "accuracy"],
                                 example: "{ user: dina, at: lorrenzillos, from: 2026-11-16 18:50, for: 48m }") else { return nil }
            let user = text(f, "user", in: what, example: "dina")
            let at = text(f, "at", in: what, example: "lorrenzillos")
            let from = time(f, "from", in: what)
            let forMs = duration(f, "for", in: what)
            let every = f["every"] == nil ? TestHistoryItem.defaultEveryMs : duration(f, "every", in: what)
            var accuracy: Double?
            if let a = text(f, "accuracy", in: what, required: false, example: "10m"), let n = f["accuracy"] {
                do { accuracy = try ValueParser.distance(a) } catch { self.error(n.mark, "accuracy: \(error.message)") }
            }
            guard let user, let at, let from, let forMs, let every, let atNode = f["at"] else { return nil }
            return .stay(.init(user: user, region: at, regionMark: atNode.mark, from: from, forMs: forMs, everyMs: every, accuracyM: accuracy))
        default:
            let what = "a trip"
            guard let f = fields(value, what, known: ["user", "from_region", "to_region", "departs", "takes", "every"],
                                 example: "{ user: dina, from_region: home, to_region: lorrenzillos, departs: 2026-11-16 18:30, takes: 15m }") else { return nil }
            let user = text(f, "user", in: what, example: "dina")
            let from = text(f, "from_region", in: what, example: "home")
            let to = text(f, "to_region", in: what, example: "lorrenzillos")
            let departs = time(f, "departs", in: what)
            let takes = duration(f, "takes", in: what)
            let every = f["every"] == nil ? TestHistoryItem.defaultEveryMs : duration(f, "every", in: what)
            guard let user, let from, let to, let departs, let takes, let every, let fm = f["from_region"], let tm = f["to_region"] else { return nil }
            return .trip(.init(user: user, fromRegion: from, fromMark: fm.mark, toRegion: to, toMark: tm.mark, departs: departs, takesMs: takes, everyMs: every))
        }
    }

    func decodeExpectation(_ node: YAMLNode) -> TestExpectation? {
        guard let (kindText, value, mark) = single(node, "expect", kinds: ["decision", "absent", "visit"]) else { return nil }
        let kind: TestExpectation.Kind = kindText == "decision" ? .decision : (kindText == "absent" ? .absent : .visit)
        let known: [String]
        switch kind {
        case .decision: known = ["user", "offer", "status", "campaign", "rule", "time", "between", "count"]
        case .absent: known = ["user", "offer", "region", "status", "campaign", "rule", "time", "between"]
        case .visit: known = ["user", "region", "campaign", "time", "between", "count", "at_least"]
        }
        let what = "a '\(kindText)' expectation"
        guard let f = fields(value, what, known: known, example: "{ user: dina, offer: loyalty }") else { return nil }
        guard let user = text(f, "user", in: what, example: "dina") else { return nil }
        var x = TestExpectation(kind: kind, mark: mark, user: user)
        x.campaign = text(f, "campaign", in: what, required: false, example: "lorrenzillos")
        x.rule = text(f, "rule", in: what, required: false, example: "regular")
        switch kind {
        case .decision:
            x.offer = text(f, "offer", in: what, example: "loyalty")
        case .visit:
            x.region = text(f, "region", in: what, example: "lorrenzillos")
        case .absent:
            x.offer = text(f, "offer", in: what, required: false, example: "loyalty")
            x.region = text(f, "region", in: what, required: false, example: "lorrenzillos")
            if (x.offer == nil) == (x.region == nil) {
                error(value.mark, "an 'absent' expectation names either an 'offer' (no such decision) or a 'region' (no such visit)")
            }
        }
        if let s = text(f, "status", in: what, required: false, example: "delivered"), let n = f["status"] {
            if kind == .absent && s == "any" {
                x.anyStatus = true
            } else if let st = DecisionStatus(rawValue: s) {
                x.status = st
            } else {
                let all = DecisionStatus.allCases.map(\.rawValue) + (kind == .absent ? ["any"] : [])
                let hint = EditDistance.suggestion(for: s, among: all).map { "did you mean '\($0)'?" } ?? "write one of \(all.joined(separator: ", "))"
                error(n.mark, "status: '\(s)' is not a decision status: \(hint)")
            }
        }
        if x.status == nil && !x.anyStatus { x.status = .delivered }
        x.time = time(f, "time", in: what, required: false)
        if let b = f["between"] {
            if let items = b.items, items.count == 2, let a = items[0].scalar, let z = items[1].scalar {
                x.between = (TestTime(text: a, mark: items[0].mark), TestTime(text: z, mark: items[1].mark))
            } else {
                error(b.mark, "'between' takes two times, from (included) and to (excluded): write for example between: [2026-11-17 12:00, 2026-11-17 13:00]")
            }
            if x.time != nil { error(b.mark, "write 'time' or 'between', not both") }
        }
        if let c = text(f, "count", in: what, required: false, example: "2"), let n = f["count"] {
            if let v = ValueParser.integer(c), v >= 0 { x.count = v } else { error(n.mark, "count: '\(c)' is not a whole number of 0 or more") }
        }
        if f["at_least"] != nil { x.atLeastMs = duration(f, "at_least", in: what, positive: false) }
        return x
    }
}
