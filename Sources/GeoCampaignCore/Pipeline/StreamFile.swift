import Foundation

/// The stream's output or rejects file: appended to, synced at each commit, cut back at start
/// to the length the state committed; stdout when no path (or `-`).
final class StreamFile {
    private let handle: UnsafeMutablePointer<FILE>
    private let path: String
    private let isFile: Bool
    /// Bytes in the file (for a file).
    private(set) var length: Int64

    init(path: String?, committed: Int64, continuing: Bool) throws {
        guard let path, path != "-" else {
            handle = stdout
            self.path = "stdout"
            isFile = false
            length = 0
            return
        }
        self.path = path
        isFile = true
        let fd = open(path, O_WRONLY | O_CREAT, 0o666)
        guard fd >= 0 else { throw RunError.failure("\(path): cannot be written: \(String(cString: strerror(errno)))") }
        // What the last commit covered stays; anything after it is written again. A stream
        // that does not continue appends to what the file holds.
        let keep = continuing ? committed : Int64.max
        var st = stat()
        fstat(fd, &st)
        let cut = min(keep, Int64(st.st_size))
        if ftruncate(fd, off_t(cut)) != 0 || lseek(fd, 0, SEEK_END) < 0 {
            close(fd)
            throw RunError.failure("\(path): cannot be cut back to its committed length: \(String(cString: strerror(errno)))")
        }
        guard let f = fdopen(fd, "ab") else { close(fd); throw RunError.failure("\(path): cannot be written") }
        handle = f
        length = cut
    }

    deinit { if isFile { fclose(handle) } }

    func append(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        if n != bytes.count { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
        length += Int64(n)
    }

    func flush() throws {
        if fflush(handle) != 0 { throw RunError.failure("\(path): write failed: \(String(cString: strerror(errno)))") }
    }

    /// Flushes and, for a file, syncs it to disk.
    func sync() throws {
        try flush()
        if isFile && fsync(fileno(handle)) != 0 { throw RunError.failure("\(path): sync failed: \(String(cString: strerror(errno)))") }
    }
}

/// SIGINT and SIGTERM ask the stream to commit and stop.
enum StreamSignals {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0
    static var stop: Bool { flag != 0 }

    static func install() {
        signal(SIGINT) { _ in StreamSignals.flag = 1 }
        signal(SIGTERM) { _ in StreamSignals.flag = 1 }
    }
}

/// Waiting on and sizing the stream's input when it is a pipe or a terminal.
enum StreamInput {
    /// Whether `fd` has bytes to read (or its end) within `waitMs` milliseconds.
    static func ready(_ fd: Int32, waitMs: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, waitMs) > 0
    }

    /// Asks for a pipe of `bytes` (Linux `F_SETPIPE_SZ`), so that a fast producer can write
    /// ahead while a micro-batch is taken; left as it is when refused (not a pipe, over the
    /// system's limit) or elsewhere.
    static func widenPipe(_ fd: Int32, bytes: Int) {
        #if os(Linux)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7)
        _ = fcntl(fd, setPipeSize, Int32(min(bytes, 1 << 20)))
        #endif
    }
}
