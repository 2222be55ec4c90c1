import Foundation

/// Reads GeoJSON import files once per load, however many campaigns import them, and keeps the
/// diagnostics that point into them.
final class GeoJSONCache {
    /// Largest import file read.
    static let maxBytes = 256 * 1024 * 1024

    /// A parsed import file and the sink for problems inside it.
    struct File {
        var root: JSONNode
        var source: SourceFile
    }

    private var cache: [String: Result<File, ValueError>] = [:]
    /// Files read ahead (in parallel) and not yet asked for.
    private var readAhead: [String: Result<File, ValueError>] = [:]
    private var order: [SourceFile] = []
    private var flushed: [ObjectIdentifier: Int] = [:]

    /// The parsed file at `path`, or why it cannot be had (the message follows "the import 'x' ").
    func file(at path: String) -> Result<File, ValueError> {
        if let r = cache[path] { return r }
        let r = readAhead.removeValue(forKey: path) ?? Self.read(path)
        cache[path] = r
        if case .success(let f) = r { order.append(f.source) }
        return r
    }

    /// Reads and parses the files at `paths` not read yet, several at a time, so that later
    /// `file(at:)` calls find them ready. Results and the order of diagnostics are those of
    /// reading each file when it is first asked for.
    /// - Complexity: O(total size) work, spread over the available cores.
    func readAhead(_ paths: [String]) {
        var todo: [String] = []
        for p in paths where cache[p] == nil && readAhead[p] == nil && !todo.contains(p) { todo.append(p) }
        guard todo.count > 1 else { return }
        let results = ResultSlots(count: todo.count)
        DispatchQueue.concurrentPerform(iterations: todo.count) { k in
            results.set(k, Self.read(todo[k]))
        }
        for (k, p) in todo.enumerated() {
            if let r = results.get(k) { readAhead[p] = r }
        }
    }

    /// One result slot per file read ahead, written once each from worker threads.
    private final class ResultSlots: @unchecked Sendable {
        private var slots: [Result<File, ValueError>?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ r: Result<File, ValueError>) {
            lock.lock()
            slots[k] = r
            lock.unlock()
        }
        func get(_ k: Int) -> Result<File, ValueError>? {
            lock.lock()
            defer { lock.unlock() }
            return slots[k]
        }
    }

    /// Diagnostics inside import files not returned before, file by file.
    func takeNewDiagnostics() -> [Diagnostic] {
        var out: [Diagnostic] = []
        for s in order {
            let done = flushed[ObjectIdentifier(s)] ?? 0
            let all = s.diagnostics
            if all.count > done { out.append(contentsOf: all[done...]) }
            flushed[ObjectIdentifier(s)] = all.count
        }
        return out
    }

    private static func read(_ path: String) -> Result<File, ValueError> {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return .failure(ValueError("cannot be found at \(path): check the path, which is relative to this YAML file"))
        }
        if isDir.boolValue { return .failure(ValueError("is a folder, not a GeoJSON file")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > maxBytes {
            return .failure(ValueError("is larger than 256 MiB: split it into several imports"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ValueError("cannot be read: check its permissions"))
        }
        let bytes = [UInt8](data)
        var parser = JSONParser(bytes: bytes)
        let root: JSONNode
        do {
            root = try parser.parse()
        } catch {
            return .failure(ValueError("is not valid JSON (line \(error.mark.line), column \(error.mark.column): \(error.message)): fix the file or export it again as GeoJSON"))
        }
        return .success(File(root: root, source: SourceFile(path: path, bytes: bytes)))
    }
}
