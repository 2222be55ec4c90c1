#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the tool writes a file: the bytes go to a temporary file beside the target, and
/// `commit` renames it into place, so a run that fails or is killed leaves the target as it was
/// (whole old file or whole new file, never half of one).
///
/// A target that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written
/// in place, since it cannot be replaced by a rename. Dropping the writer without `commit`
/// removes the temporary file. A `kill -9` between open and commit leaves it behind, named
/// `.NAME.tmp-PID-N` in the target's folder.
public final class AtomicFile {
    /// The target path.
    public let path: String
    /// Where the bytes go until `commit` (nil when writing in place).
    public let temporaryPath: String?
    private var file: UnsafeMutablePointer<FILE>?
    /// Nothing was written since the last `sync`.
    private var synced = false
    private nonisolated(unsafe) static var counter = 0

    /// Creates the temporary file beside `path`.
    /// - Throws: `RunError.failure` naming `path` when its folder cannot be written.
    public init(path: String) throws {
        self.path = path
        var st = stat()
        // A symbolic link is followed, so the file it names is replaced and the link stays.
        // `/dev/stdout`, `/dev/fd/N` and `/proc/self/fd/N` name an open descriptor: written in
        // place and appended to, as the shell's `>` or `>>` that opened it means.
        let target = Self.resolved(path)
        let descriptor = ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/"].contains { path.hasPrefix($0) }
        if (stat(target, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG) || descriptor {
            guard let f = fopen(path, descriptor ? "ab" : "wb") else { throw Self.failure(path, "cannot be written") }
            file = f
            temporaryPath = nil
            return
        }
        let slash = target.lastIndex(of: "/")
        let dir = slash.map { String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        Self.counter += 1
        let temp = (dir.isEmpty ? "" : dir + "/") + ".\(name).tmp-\(getpid())-\(Self.counter)"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard fd >= 0 else { throw Self.failure(path, "cannot be written") }
        if stat(target, &st) == 0 { _ = fchmod(fd, st.st_mode & 0o7777) }
        guard let f = fdopen(fd, "wb") else {
            close(fd)
            unlink(temp)
            throw Self.failure(path, "cannot be written")
        }
        file = f
        temporaryPath = temp
        renameTarget = target
    }

    /// Where `commit` renames the temporary file: `path` with its symbolic links followed.
    private var renameTarget: String = ""

    /// `path` with every symbolic link followed (a missing final component kept as written), or
    /// `path` itself when its folder cannot be resolved.
    private static func resolved(_ path: String) -> String {
        if let r = realpath(path, nil) { defer { free(r) }; return String(cString: r) }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A dangling link: write where it points.
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        if n > 0 {
            let dest = String(cString: buf)
            return dest.hasPrefix("/") ? dest : (dir.isEmpty ? "/" : dir + "/") + dest
        }
        guard let d = realpath(dir.isEmpty ? "/" : dir, nil) else { return path }
        defer { free(d) }
        let base = String(cString: d)
        return (base == "/" ? "" : base) + "/" + name
    }

    deinit { discard() }

    private static func failure(_ path: String, _ what: String) -> RunError {
        .failure("\(path): \(what): \(String(cString: strerror(errno)))")
    }

    /// Appends bytes.
    /// - Throws: `RunError.failure` naming the target when the write fails (disk full).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let f = file else { throw RunError.failure("\(path): write failed: already closed") }
        guard bytes.count > 0 else { return }
        synced = false
        if fwrite(bytes.baseAddress, 1, bytes.count, f) != bytes.count { throw Self.failure(path, "write failed") }
    }

    /// Flushes and syncs what was written so far to the temporary file, so that `commit` has
    /// only the rename left (a stateful run syncs its output beside the database's commit).
    /// - Throws: `RunError.failure` naming the target when the write fails.
    public func sync() throws {
        guard let f = file, temporaryPath != nil else { return }
        guard fflush(f) == 0, fsync(fileno(f)) == 0 else { throw Self.failure(path, "write failed") }
        synced = true
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Flushes, syncs and renames the temporary file into place; afterwards the target holds
    /// exactly the bytes written.
    /// - Throws: `RunError.failure` naming the target; the target is then unchanged.
    public func commit() throws {
        guard let f = file else { return }
        file = nil
        let flushed = fflush(f) == 0 && (temporaryPath == nil || synced || fsync(fileno(f)) == 0)
        let err = errno
        let closed = fclose(f) == 0
        guard let temp = temporaryPath else {
            if !flushed || !closed { errno = err; throw Self.failure(path, "write failed") }
            return
        }
        guard flushed, closed else {
            errno = err
            unlink(temp)
            throw Self.failure(path, "write failed")
        }
        if rename(temp, renameTarget) != 0 {
            let e = errno
            unlink(temp)
            errno = e
            throw Self.failure(path, "cannot be replaced")
        }
    }

    /// Drops what was written; the target stays as it was.
    public func discard() {
        guard let f = file else { return }
        file = nil
        fclose(f)
        if let temp = temporaryPath { unlink(temp) }
    }
}
