import Foundation

/// A buffered byte sink on stdout (no path, or `-`) or on a file written through `AtomicFile`:
/// the file is replaced only by `close`, so a run that fails leaves an existing file whole.
public final class OutputSink {
    private let handle: UnsafeMutablePointer<FILE>?
    private let file: AtomicFile?
    private let path: String
    /// When set (a file, not stdout): the bytes written are synced to disk each time this many
    /// more have been written, while the run goes on, so that `close` has only the last ones
    /// left to sync. A one-shot run writes from a thread that otherwise waits for the replay's
    /// blocks; the sync at the end (L: 62 MB, 0.14 s) was all on the critical path.
    public var syncEvery: Int?
    /// Bytes written since the last sync.
    private var unsynced = 0

    /// Opens `path` for writing (aside, renamed by `close`), or stdout when nil or `-`.
    /// - Throws: `RunError.failure` naming the path when it cannot be written.
    public init(path: String?) throws {
        if let path, path != "-" {
            file = try AtomicFile(path: path)
            handle = nil
            self.path = path
        } else {
            file = nil
            handle = stdout
            self.path = "stdout"
        }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        if let file {
            try file.write(bytes)
            if let every = syncEvery {
                unsynced += bytes.count
                if unsynced >= every {
                    try file.sync()
                    unsynced = 0
                }
            }
            return
        }
        let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        if n != bytes.count { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
    }

    /// Appends a string's UTF-8 bytes.
    public func write(_ s: String) throws { try write(Array(s.utf8)) }

    /// Syncs a file's bytes so far to disk (nothing for stdout); `close` then only renames it.
    public func sync() throws { try file?.sync() }

    /// Flushes stdout, or puts the file in place.
    public func close() throws {
        if let file { return try file.commit() }
        if fflush(handle) != 0 { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
    }
}
