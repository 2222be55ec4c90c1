import Foundation

/// Loads campaign folders and files into a `CampaignSet`, collecting every problem of every file
/// (formats.md 1). Nothing in a campaign file is ever executed.
///
///     let result = CampaignLoader().load(paths: ["campaigns"])
///     for d in result.diagnostics { print(d, to: &stderr) }
///     if result.hasErrors { exit(65) }
public struct CampaignLoader: Sendable {
    /// Largest campaign file read (formats.md 1.6).
    public static let maxFileBytes = 10 * 1024 * 1024

    /// Whether each campaign's bytes (its file's and its imports') are hashed into
    /// `Campaign.sourceHash`, which only a stateful run uses (to reuse the fingerprint its state
    /// keeps for the same bytes: `CampaignFingerprint.sourceKey`). Without it `sourceHash` is
    /// empty and a campaign is fingerprinted from its contents if ever needed.
    public var hashesSources: Bool

    /// Creates a loader.
    public init(hashesSources: Bool = false) {
        self.hashesSources = hashesSources
    }

    /// Loads every path: a folder contributes its `*.yaml`/`*.yml` files (not recursive, sorted
    /// by file name, printed as the folder joined with the file name); a file is read as given.
    /// - Parameter paths: folders or files, as named on the command line.
    /// - Returns: the model, all diagnostics, and the paths that could not be opened.
    public func load(paths: [String]) -> LoadResult {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        var unreadable: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                unreadable.append(path)
                diagnostics.append(Diagnostic(severity: .error, path: path, line: 0, column: 0,
                                              message: "no such file or folder: check the path"))
                continue
            }
            if isDir.boolValue {
                guard let names = try? fm.contentsOfDirectory(atPath: path) else {
                    unreadable.append(path)
                    diagnostics.append(Diagnostic(severity: .error, path: path, line: 0, column: 0,
                                                  message: "cannot read this folder: check its permissions"))
                    continue
                }
                let yaml = names.filter { n in
                    let lower = n.lowercased()
                    return (lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")) && !n.hasPrefix(".")
                }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                if yaml.isEmpty {
                    diagnostics.append(Diagnostic(severity: .warning, path: path, line: 0, column: 0,
                                                  message: "this folder holds no *.yaml or *.yml files: no campaigns loaded from it"))
                }
                let base = path.hasSuffix("/") ? path : path + "/"
                files.append(contentsOf: yaml.map { base + $0 })
            } else {
                files.append(path)
            }
        }
        var set = CampaignSet(campaigns: [])
        var campaignIds: [String: (path: String, line: Int)] = [:]
        var settingsAt: (path: String, line: Int)?
        let imports = GeoJSONCache()
        for path in files {
            guard let bytes = Self.read(path, into: &diagnostics, unreadable: &unreadable) else { continue }
            let source = SourceFile(path: path, bytes: bytes)
            let parser = YAMLParser(bytes: bytes)
            let root: YAMLNode?
            do {
                root = try parser.parse()
            } catch {
                root = nil
                source.error(error.mark, error.message)
            }
            for p in parser.problems { source.error(p.mark, p.message) }
            if let root {
                let decoder = CampaignDecoder(file: source, imports: imports, hashesSources: hashesSources)
                switch decoder.decode(root) {
                case .campaign(let c, let mark):
                    if !c.id.isEmpty, let first = campaignIds[c.id] {
                        let where_ = first.path == path ? "on line \(first.line)" : "in \(first.path)"
                        source.error(mark, "the campaign id '\(c.id)' is already used \(where_): campaign ids must be unique across all files")
                    } else {
                        if !c.id.isEmpty { campaignIds[c.id] = (path, mark.line) }
                        set.campaigns.append(c)
                    }
                case .settings(let s, let mark):
                    if let first = settingsAt {
                        source.error(mark, "there is already a settings file (\(first.path)): keep one settings file and merge the two")
                    } else {
                        settingsAt = (path, mark.line)
                        set.settings = s
                    }
                case .nothing:
                    break
                }
            }
            diagnostics.append(contentsOf: source.sortedDiagnostics)
            diagnostics.append(contentsOf: imports.takeNewDiagnostics())
        }
        return LoadResult(campaignSet: set, diagnostics: diagnostics, unreadablePaths: unreadable)
    }

    /// The bytes of a file within the size limit, or nil after recording why not.
    private static func read(_ path: String, into diagnostics: inout [Diagnostic], unreadable: inout [String]) -> [UInt8]? {
        let fm = FileManager.default
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            // A FIFO or device would block the load or never end.
            diagnostics.append(Diagnostic(severity: .error, path: path, line: 0, column: 0,
                                          message: "not a regular file (a named pipe, device or socket): name a campaign file or folder"))
            return nil
        }
        if let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.int64Value > Int64(maxFileBytes) {
            let mib = Double(size.int64Value) / 1_048_576
            diagnostics.append(Diagnostic(severity: .error, path: path, line: 1, column: 1,
                                          message: "the file is \(String(format: "%.1f", mib)) MiB, more than the 10 MiB a campaign file may have: split it, or move large region sets into GeoJSON imports"))
            return nil
        }
        guard let data = fm.contents(atPath: path) else {
            unreadable.append(path)
            diagnostics.append(Diagnostic(severity: .error, path: path, line: 0, column: 0,
                                          message: "cannot read this file: check its permissions"))
            return nil
        }
        if data.count > maxFileBytes {
            diagnostics.append(Diagnostic(severity: .error, path: path, line: 1, column: 1,
                                          message: "the file is more than the 10 MiB a campaign file may have: split it, or move large region sets into GeoJSON imports"))
            return nil
        }
        return [UInt8](data)
    }
}
