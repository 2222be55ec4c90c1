import Foundation

/// Runs campaign test files (docs/testing-campaigns.md): loads the campaigns a file names,
/// builds each case's history (inline fixes, files, stays and trips), replays it in-process
/// through the one engine (crossing, rules, arbitration) and checks the expectations.
///
///     let result = CampaignTestRunner().run(path: "campaigns/tests/lorrenzillos.yaml")
///     result.isBroken      // a problem in the test file or campaigns (exit 65)
///     result.failedCount   // cases whose expectations were not met (exit 1)
public struct CampaignTestRunner: Sendable {
    /// `--tz`: the zone times are written in (local times in the file are still read in the
    /// file's `timezone`, else the campaigns' zone).
    public var zoneOverride: LocalTimeFormat?

    /// Creates a runner.
    public init(zoneOverride: LocalTimeFormat? = nil) {
        self.zoneOverride = zoneOverride
    }

    /// Every test file under `paths`: a file as given; a folder's `*.yaml`/`*.yml` files,
    /// recursively, sorted by path. Paths that do not exist come back in `missing`.
    public static func files(_ paths: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = [], missing: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { missing.append(path); continue }
            guard isDir.boolValue else { files.append(path); continue }
            let base = path.hasSuffix("/") ? path : path + "/"
            let found = (fm.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { n in
                let name = n.split(separator: "/").last.map(String.init) ?? n
                let lower = name.lowercased()
                return (lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")) && !name.hasPrefix(".")
            }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            files += found.map { base + $0 }
        }
        return (files, missing)
    }

    /// Runs one test file.
    /// - Complexity: one replay per case, of that case's fixes.
    public func run(path: String) -> CampaignTestFileResult {
        var inputs = [path]
        var result = runCases(path: path, inputs: &inputs)
        result.inputs = inputs
        return result
    }

    /// The files test file `file` makes a run read besides itself: the campaign files it names
    /// (the `*.yaml`/`*.yml` files of a named folder) and its history files.
    static func inputs(of file: CampaignTestFile) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for c in file.campaignPaths {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: c, isDirectory: &isDir), isDir.boolValue {
                let names = (try? fm.contentsOfDirectory(atPath: c)) ?? []
                out += names.filter { $0.lowercased().hasSuffix(".yaml") || $0.lowercased().hasSuffix(".yml") }.map { c + "/" + $0 }
            } else {
                out.append(c)
            }
        }
        for c in file.cases {
            for case let .file(p, _, _) in c.history { out.append(p) }
        }
        return out
    }

    private func runCases(path: String, inputs: inout [String]) -> CampaignTestFileResult {
        let (model, decodeDiagnostics) = CampaignTestDecoder.load(path: path)
        guard let file = model, let source = file.source else {
            return CampaignTestFileResult(path: path, diagnostics: decodeDiagnostics, cases: [], zone: zoneOverride ?? .utc)
        }
        inputs += Self.inputs(of: file)
        for (p, mark) in zip(file.campaignPaths, file.campaignMarks) where !FileManager.default.fileExists(atPath: p) {
            source.error(mark, "no campaign file or folder at '\(p)': paths are relative to this test file")
        }
        if source.hasErrors {
            return CampaignTestFileResult(path: path, diagnostics: source.sortedDiagnostics, cases: [], zone: zoneOverride ?? .utc)
        }
        let loaded = CampaignLoader().load(paths: file.campaignPaths)
        let campaigns = loaded.campaignSet
        let readZone = file.timezone.flatMap { LocalTimeFormat(zone: $0) } ?? LocalTimeFormat.forSet(campaigns)
        let zone = zoneOverride ?? readZone
        if loaded.hasErrors || campaigns.campaigns.isEmpty {
            var d = loaded.diagnostics
            if campaigns.campaigns.isEmpty && !loaded.hasErrors {
                d.append(Diagnostic(severity: .error, path: path, line: file.campaignMarks.first?.line ?? 1, column: file.campaignMarks.first?.column ?? 1,
                                    message: "the paths under 'campaigns' hold no campaign", sourceLine: source.line(file.campaignMarks.first?.line ?? 1)))
            }
            return CampaignTestFileResult(path: path, diagnostics: d, cases: [], zone: zone)
        }
        let replay = Replay(campaigns: campaigns, options: .init(threads: 1))
        let context = CaseContext(campaigns: campaigns, replay: replay, readZone: readZone, zone: zone, source: source)
        var prepared: [(CampaignTestCase, [String: [Fix]])] = []
        for c in file.cases {
            prepared.append((c, context.history(of: c)))
        }
        if source.hasErrors {
            return CampaignTestFileResult(path: path, diagnostics: loaded.diagnostics + source.sortedDiagnostics, cases: [], zone: zone)
        }
        var results: [CampaignTestCaseResult] = []
        for (c, fixes) in prepared {
            let start = Date()
            let failures = context.check(c, fixes)
            results.append(CampaignTestCaseResult(name: c.name, line: c.mark.line, failures: failures, seconds: Date().timeIntervalSince(start)))
        }
        let diagnostics = loaded.diagnostics + source.sortedDiagnostics
        return CampaignTestFileResult(path: path, diagnostics: diagnostics, cases: results, zone: zone)
    }
}
