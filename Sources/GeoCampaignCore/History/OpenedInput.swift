import Foundation

/// A history file opened for reading (`-` is stdin): its descriptor, and its size when it is a
/// regular file. Closes the descriptor (not stdin's) when released.
final class OpenedInput {
    /// The file descriptor.
    let fd: Int32
    /// Whether it is a regular file (so it can be split and its size is known).
    let regular: Bool
    /// The size in bytes of a regular file, else 0.
    let size: Int

    /// Opens `path`.
    /// - Throws: `HistoryError.cannotOpen` naming the path (missing, unreadable, a directory).
    init(path: String) throws {
        if path == "-" {
            fd = 0
        } else {
            fd = open(path, O_RDONLY)
            if fd < 0 { throw HistoryError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        }
        var st = stat()
        let known = fstat(fd, &st) == 0
        if known && (st.st_mode & S_IFMT) == S_IFDIR {
            if fd != 0 { close(fd) }
            throw HistoryError.cannotOpen(path: path, reason: "is a directory")
        }
        regular = known && (st.st_mode & S_IFMT) == S_IFREG
        size = regular ? Int(st.st_size) : 0
    }

    deinit {
        if fd != 0 { close(fd) }
    }
}
