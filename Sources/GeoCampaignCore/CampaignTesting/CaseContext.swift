import Foundation

/// What running the cases of one test file shares: the campaigns, the compiled replay, the
/// zones, and the test file's text for problems found while building histories.
final class CaseContext {
    let campaigns: CampaignSet
    let replay: Replay
    /// Local times of the file are read in this zone.
    let readZone: LocalTimeFormat
    /// Times are written in this zone.
    let zone: LocalTimeFormat
    let source: SourceFile
    /// Interior points already found, by region id.
    private var points: [String: Coordinate] = [:]

    init(campaigns: CampaignSet, replay: Replay, readZone: LocalTimeFormat, zone: LocalTimeFormat, source: SourceFile) {
        self.campaigns = campaigns
        self.replay = replay
        self.readZone = readZone
        self.zone = zone
        self.source = source
    }

    /// The instant a test time names (the start of its span), or nil after reporting it.
    func instant(_ t: TestTime) -> Int64? {
        if let s = t.span(readZone) { return s.start }
        source.error(t.mark, "'\(t.text)' is not a time: write a local time like 2026-11-17 12:30 (in \(readZone.zone)), a date like 2026-11-17, or an instant like 2026-11-17T20:30:00Z")
        return nil
    }

    func span(_ t: TestTime) -> Interval? {
        if let s = t.span(readZone) { return s }
        _ = instant(t)
        return nil
    }

    /// The region named `name` (`region` or `campaign/region`): the first campaign that has it.
    func region(_ name: String, _ mark: SourceMark) -> Region? {
        var campaignId: String?, id = name
        if let slash = name.firstIndex(of: "/") {
            campaignId = String(name[..<slash])
            id = String(name[name.index(after: slash)...])
        }
        for c in campaigns.campaigns where campaignId == nil || c.id == campaignId {
            if let r = c.regions.first(where: { $0.id == id }) { return r }
        }
        let all = campaigns.campaigns.flatMap { $0.regions.map(\.id) }
        let hint = EditDistance.suggestion(for: id, among: all).map { ": did you mean '\($0)'?" } ?? ""
        source.error(mark, "no region '\(name)' in the campaigns of this test file\(hint)")
        return nil
    }

    /// A point well inside region `name`, or nil after reporting why there is none.
    func point(_ name: String, _ mark: SourceMark) -> Coordinate? {
        if let p = points[name] { return p }
        guard let r = region(name, mark) else { return nil }
        let (p, depth) = InteriorPoint.find(r)
        // Deeper than any hysteresis the campaigns set, so every fix counts as IN.
        let needed = (campaigns.campaigns.flatMap { c in [c.tracking.hysteresisM] + c.regions.map(\.hysteresisM) }.compactMap { $0 }
            + [campaigns.settings.tracking.hysteresisM ?? 0, Tracking.defaults.hysteresisM ?? 20]).max() ?? 20
        guard depth > needed else {
            source.error(mark, "region '\(name)' has no point \(Int(needed.rounded())) m inside its edge (the deepest found is \(Int(depth.rounded())) m): a stay there cannot count as inside; write the fixes instead")
            return nil
        }
        points[name] = p
        return p
    }

    /// Each user's fixes for case `c`, sorted by time (stable: items in file order), after `until`.
    func history(of c: CampaignTestCase) -> [String: [Fix]] {
        var byUser: [String: [Fix]] = [:]
        func add(_ user: String, _ f: Fix) { byUser[user, default: []].append(f) }
        for item in c.history {
            switch item {
            case let .lines(text, firstLine, mark):
                let b = HistoryBuilder()
                b.threads = 1
                var rejects: [RejectedLine] = []
                b.onReject = { rejects.append($0) }
                try? b.readJSONLines(bytes: Array(text.utf8), name: source.path)
                for r in rejects {
                    let line = firstLine + r.line - 1
                    let column = (source.line(line)?.prefix { $0 == " " || $0 == "\t" }.count).map { $0 + 1 } ?? mark.column
                    source.error(SourceMark(line: line, column: column), "this fix line is rejected (\(r.reason.rawValue)): \(r.detail)")
                }
                merge(b.finish(), into: &byUser)
            case let .file(path, user, mark):
                if let h = historyFile(path, user, mark) { merge(h, into: &byUser) }
            case let .stay(s):
                guard let p = point(s.region, s.regionMark), let from = instant(s.from),
                      fewEnough(s.forMs, s.everyMs, s.regionMark), inRange(from, s.forMs, s.from.mark) else { continue }
                var t = from
                while t <= from + s.forMs {
                    add(s.user, Fix(time: t, lat: p.lat, lon: p.lon, accuracy: s.accuracyM ?? .nan))
                    t += s.everyMs
                }
                if t - s.everyMs < from + s.forMs { add(s.user, Fix(time: from + s.forMs, lat: p.lat, lon: p.lon)) }
            case let .trip(tr):
                guard let a = point(tr.fromRegion, tr.fromMark), let z = point(tr.toRegion, tr.toMark), let t0 = instant(tr.departs),
                      fewEnough(tr.takesMs, tr.everyMs, tr.fromMark), inRange(t0, tr.takesMs, tr.departs.mark) else { continue }
                let steps = max(1, Int((tr.takesMs + tr.everyMs - 1) / tr.everyMs))
                for k in 0...steps {
                    let f = Double(k) / Double(steps)
                    add(tr.user, Fix(time: t0 + Int64((Double(tr.takesMs) * f).rounded()), lat: a.lat + (z.lat - a.lat) * f, lon: a.lon + (z.lon - a.lon) * f))
                }
            }
        }
        for x in c.expectations {
            checkNames(x)
            if let t = x.time { _ = span(t) }
            if let (a, b) = x.between { _ = span(a); _ = span(b) }
        }
        let until = c.until.flatMap { instant($0) }
        for (u, fixes) in byUser {
            var sorted = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            if let until { sorted.removeAll { $0.time > until } }
            byUser[u] = sorted
        }
        return byUser
    }

    /// Most fixes one stay or trip may make.
    static let maxFixesPerItem: Int64 = 1_000_000
    /// Most fixes the stays and trips of one test file may make together, so that a few lines
    /// cannot ask for gigabytes (30 stays of a million fixes each).
    static let maxFixesPerFile: Int64 = 2_000_000
    /// Fixes made by the stays and trips read so far (all cases of the file).
    private(set) var generatedFixes: Int64 = 0

    /// Whether a stay or trip of `lengthMs` with a fix every `everyMs` stays within
    /// `maxFixesPerItem` fixes, and the file within `maxFixesPerFile`; reports it at `mark` when not.
    func fewEnough(_ lengthMs: Int64, _ everyMs: Int64, _ mark: SourceMark) -> Bool {
        guard everyMs > 0, lengthMs / everyMs < Self.maxFixesPerItem, lengthMs < 100 * 365 * 86_400_000 else {
            source.error(mark, "this would make more than \(Self.maxFixesPerItem) fixes (or span more than 100 years): shorten it or write a larger 'every'")
            return false
        }
        let count = lengthMs / everyMs + (lengthMs % everyMs == 0 ? 1 : 2)
        guard generatedFixes + count <= Self.maxFixesPerFile else {
            if generatedFixes <= Self.maxFixesPerFile {
                source.error(mark, "the stays and trips of this file would make more than \(Self.maxFixesPerFile) fixes together: shorten them, write a larger 'every', or split the file")
            }
            generatedFixes = Self.maxFixesPerFile + 1
            return false
        }
        generatedFixes += count
        return true
    }

    /// Whether the fixes from `start` to `start + lengthMs` lie within the instants a history
    /// may hold (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, formats.md 2.1); reports it
    /// at `mark` when not.
    func inRange(_ start: Int64, _ lengthMs: Int64, _ mark: SourceMark) -> Bool {
        guard start >= RFC3339.minMilliseconds, lengthMs <= RFC3339.maxMilliseconds - start else {
            source.error(mark, "the fixes would fall outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, the instants a history may hold: move it inside that range")
            return false
        }
        return true
    }

    /// The fixes of history file `path`, or nil after reporting why there are none: it is not
    /// a regular file (a FIFO or device would block or never end), cannot be read, or has
    /// rejected lines or no fix at all (an `absent` expectation would pass for the wrong reason).
    func historyFile(_ path: String, _ user: String?, _ mark: SourceMark) -> History? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            source.error(mark, "the history file '\(path)' cannot be read: \(String(cString: strerror(errno))) (paths are relative to this test file)")
            return nil
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            let what = (st.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file (a device, FIFO or socket)"
            source.error(mark, "the history file '\(path)' is \(what): name a JSON Lines, CSV or GPX file")
            return nil
        }
        let b = HistoryBuilder()
        b.threads = 1
        var rejected = 0
        var first: RejectedLine?
        b.onReject = { r in
            rejected += 1
            if first == nil { first = r }
        }
        do {
            try b.read(path: path, gpxUser: user)
        } catch let e as HistoryError {
            switch e {
            case let .malformedGPX(p, line, column, message): source.error(mark, "the history file '\(p)' is not GPX (line \(line), column \(column)): \(message)")
            case let .cannotOpen(p, reason), let .readFailed(p, reason), let .writeFailed(p, reason): source.error(mark, "the history file '\(p)' cannot be read: \(reason)")
            case let .badFieldMapping(text): source.error(mark, "the history file '\(path)' cannot be read: \(text)")
            }
            return nil
        } catch {
            source.error(mark, "the history file '\(path)' cannot be read: \(error)")
            return nil
        }
        let h = b.finish()
        if let first {
            source.error(mark, "the history file '\(path)' has \(rejected) rejected line\(rejected == 1 ? "" : "s"), the first at line \(first.line) (\(first.reason.rawValue)): \(first.detail)")
            return nil
        }
        if h.fixes.allSatisfy(\.isEmpty) {
            source.error(mark, "the history file '\(path)' holds no fix: name a file with fixes, or leave it out")
            return nil
        }
        return h
    }

    /// Reports campaign, rule, offer and region ids of an expectation that no campaign has
    /// (an expectation on a misspelt offer would pass for the wrong reason).
    func checkNames(_ x: TestExpectation) {
        let scope = campaigns.campaigns.filter { x.campaign == nil || $0.id == x.campaign }
        func missing(_ what: String, _ id: String, _ all: [String]) {
            let hint = EditDistance.suggestion(for: id, among: all).map { ": did you mean '\($0)'?" } ?? ""
            source.error(x.mark, "no \(what) '\(id)' in the campaigns of this test file\(hint)")
        }
        if let c = x.campaign, scope.isEmpty { missing("campaign", c, campaigns.campaigns.map(\.id)) }
        if let o = x.offer, !scope.contains(where: { $0.offerIndex(o) != nil }) { missing("offer", o, scope.flatMap { $0.offers.map(\.id) }) }
        if let r = x.rule, !scope.contains(where: { $0.rules.contains { $0.id == r } }) { missing("rule", r, scope.flatMap { $0.rules.map(\.id) }) }
        if let g = x.region, !scope.contains(where: { $0.regions.contains { $0.id == g } }) { missing("region", g, scope.flatMap { $0.regions.map(\.id) }) }
    }

    private func merge(_ h: History, into byUser: inout [String: [Fix]]) {
        for (i, u) in h.userIds.enumerated() { byUser[u, default: []] += h.fixes[i] }
    }
}
