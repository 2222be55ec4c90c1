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

    private var failures: [String: ValueError] = [:]
    private var order: [SourceFile] = []
    private var flushed: [ObjectIdentifier: Int] = [:]

    /// The file at `path` parsed (its `stream`'s array streamed to the stream's sinks), or why it
    /// cannot be had (the message follows "the import 'x' "). Each call parses the file again:
    /// an import entry decodes it while it is parsed, so a load holds at most the document being
    /// decoded. Failures are kept (they are small, and their message is given once per entry anyway).
    /// `whenRead` is called with the file's bytes once they are read, before they are parsed.
    func file(at path: String, stream: JSONParser.ItemStream? = nil, whenRead: (SourceFile) -> Void = { _ in }) -> Result<File, ValueError> {
        if let e = failures[path] { return .failure(e) }
        let r = Self.read(path, stream: stream, whenRead: whenRead)
        switch r {
        case .failure(let e): failures[path] = e
        case .success(let f): order.append(f.source)
        }
        return r
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

    private static func read(_ path: String, stream: JSONParser.ItemStream?, whenRead: (SourceFile) -> Void) -> Result<File, ValueError> {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return .failure(ValueError("cannot be found at \(path): check the path, which is relative to this YAML file"))
        }
        if isDir.boolValue { return .failure(ValueError("is a folder, not a GeoJSON file")) }
        // A FIFO or a device would block the load (or never end): only regular files are read.
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .failure(ValueError("cannot be read: check its permissions"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFIFO: kind = "a named pipe (FIFO)"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            return .failure(ValueError("is \(kind), not a GeoJSON file: import a regular file"))
        }
        let size = Int(info.st_size)
        if size > maxBytes {
            return .failure(ValueError("is larger than 256 MiB: split it into several imports"))
        }
        guard let bytes = contents(path, expected: size) else {
            return .failure(ValueError("cannot be read: check its permissions"))
        }
        if bytes.count > maxBytes {
            return .failure(ValueError("is larger than 256 MiB: split it into several imports"))
        }
        let source = SourceFile(path: path, shared: bytes)
        whenRead(source)
        let parser = JSONParser(bytes: bytes)
        let root: JSONNode
        do {
            root = JSONNode(document: try parser.document(stream: stream), index: 0)
            if bytes.fileChanged { return .failure(changedWhileRead) }
        } catch {
            if bytes.fileChanged { return .failure(changedWhileRead) }
            // Only the place and the kind of problem: never the file's text, which need not be
            // GeoJSON at all (a campaign must not be a way to print another file's lines).
            if let first = bytes.buffer.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }),
               first != 0x7B && first != 0x5B {
                return .failure(ValueError("is not GeoJSON (it does not start with '{' as a GeoJSON FeatureCollection does): export the regions as a GeoJSON FeatureCollection"))
            }
            return .failure(ValueError("is not valid JSON (line \(error.mark.line), column \(error.mark.column): \(error.message)): fix the file or export it again as GeoJSON"))
        }
        return .success(File(root: root, source: source))
    }

    /// The failure of a mapped import whose file changed while it was parsed (`MappedFile`).
    static let changedWhileRead = ValueError("changed while it was read (another program wrote it during this run): run again once it is written")

    /// Files of at least this many bytes are mapped (`MappedFile`), or read in pieces on all
    /// cores where they cannot be mapped.
    static let parallelReadFrom = 4 << 20

    /// Whether files of `parallelReadFrom` bytes and more are mapped rather than read (the
    /// environment variable `GEOCAMPAIGN_READ_IMPORTS` set to 1 reads them, to compare both).
    static let mapLargeFiles = ProcessInfo.processInfo.environment["GEOCAMPAIGN_READ_IMPORTS"] != "1"

    /// Reads bytes `0 ..< expected` of `fd` into `memory` in pieces, one per core (`pread`, so
    /// the file offset is not used); returns how many bytes from the start were read without a
    /// gap (less than `expected` when a piece came up short: the file shrank), or -1 on an error.
    private static func readInPieces(_ fd: Int32, into memory: UnsafeMutableBufferPointer<UInt8>, _ expected: Int) -> Int {
        let pieces = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        guard let base = memory.baseAddress else { return 0 }
        // Per piece: bytes read, or -1 after an error. Each piece writes only its own range of
        // `memory` and its own slot.
        var read = [Int](repeating: 0, count: pieces)
        read.withUnsafeMutableBufferPointer { slots in
            DispatchQueue.concurrentPerform(iterations: pieces) { k in
                let lo = expected * k / pieces, hi = expected * (k + 1) / pieces
                var at = lo
                while at < hi {
                    let n = pread(fd, base + at, hi - at, off_t(at))
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 {
                        if n < 0 { at = lo - 1 }
                        break
                    }
                    at += n
                }
                slots[k] = at - lo
            }
        }
        var count = 0
        for k in 0..<pieces {
            let lo = expected * k / pieces, hi = expected * (k + 1) / pieces
            if read[k] < 0 { return -1 }
            count = lo + read[k]
            if read[k] < hi - lo { break }
        }
        return count
    }

    /// The bytes of the file at `path`, read straight into memory of `expected` bytes (then
    /// whatever follows if the file grew, up to just over `maxBytes`); nil if it cannot be opened
    /// or read.
    private static func contents(_ path: String, expected: Int) -> FileBytes? {
        if expected >= parallelReadFrom && mapLargeFiles {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= parallelReadFrom,
               Int(info.st_size) <= maxBytes, let mapped = MappedFile(fd: fd, status: info) {
                return FileBytes(mapping: mapped)
            }
            // Not mapped: read as below.
            close(fd)
        }
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, expected))
        if let base = memory.baseAddress { HugePages.advise(base, bytes: memory.count) }
        var count: Int
        if expected >= parallelReadFrom {
            // Large files in pieces on all cores (the copy from the page cache, and the first
            // touch of the fresh pages, were one thread's work before the parse could start);
            // the rest, if the file grew or a piece came up short, as below.
            count = readInPieces(fileno(f), into: memory, expected)
            guard count >= 0, fseek(f, count, SEEK_SET) == 0 else {
                memory.deallocate()
                return nil
            }
        } else {
            count = memory.baseAddress.map { fread($0, 1, expected, f) } ?? 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while ferror(f) == 0 && feof(f) == 0 && count <= maxBytes {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            if count + n > memory.count {
                let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(2 * memory.count, count + n))
                _ = bigger.initialize(from: memory[0..<count])
                memory.deallocate()
                memory = bigger
            }
            _ = UnsafeMutableBufferPointer(rebasing: memory[count..<(count + n)]).initialize(from: chunk[0..<n])
            count += n
        }
        guard ferror(f) == 0 else {
            memory.deallocate()
            return nil
        }
        return FileBytes(adopting: memory, count: count)
    }
}
