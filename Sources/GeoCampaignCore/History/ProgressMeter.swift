import Foundation

/// Adds up the bytes read by one or several reading threads and calls the progress callback at
/// most once per `step` bytes (and once at the end of each file), never from two threads at once.
final class ProgressMeter: @unchecked Sendable {
    /// Reports are at least this many bytes apart (except the last one of a file).
    static let step = 4 << 20

    private let lock = NSLock()
    private var callback: ((HistoryProgress) -> Void)?
    private var path = ""
    private var done = 0
    private var total = 0
    private var before = 0
    private var lastReported = 0

    init() {}

    /// Whether anyone listens.
    var isActive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return callback != nil
    }

    /// Starts a new file of `total` bytes (0 when unknown), reported to `callback`.
    func begin(path: String, total: Int, callback: ((HistoryProgress) -> Void)?) {
        lock.lock()
        self.callback = callback
        before += done
        done = 0
        lastReported = 0
        self.path = path
        self.total = total
        lock.unlock()
    }

    /// Opens `path` (`-` is stdin) and starts it as a new file (`begin`), of its size when it is
    /// a regular file.
    /// - Throws: `HistoryError.cannotOpen` naming the path.
    func open(path: String, callback: ((HistoryProgress) -> Void)?) throws -> OpenedInput {
        let input = try OpenedInput(path: path)
        begin(path: path, total: input.size, callback: callback)
        return input
    }

    /// Has `reader` count the bytes it reads here, when anyone listens.
    func watch(_ reader: BlockLineReader) {
        if isActive { reader.onBytes = { [self] in add($0) } }
    }

    /// Starts the current file over (it is read again): its bytes so far no longer count.
    func rewind() {
        lock.lock()
        done = 0
        lastReported = 0
        lock.unlock()
    }

    /// Counts `n` more bytes read; may call the callback.
    func add(_ n: Int) {
        lock.lock()
        done += n
        if let callback, done - lastReported >= ProgressMeter.step {
            lastReported = done
            callback(HistoryProgress(path: path, bytesDone: done, bytesTotal: total, allBytesDone: before + done))
        }
        lock.unlock()
    }

    /// Reports the end of the current file.
    func end() {
        lock.lock()
        lastReported = done
        callback?(HistoryProgress(path: path, bytesDone: done, bytesTotal: total, allBytesDone: before + done))
        lock.unlock()
    }
}
