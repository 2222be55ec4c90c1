/// How far reading a history has come, for a progress display.
public struct HistoryProgress: Sendable, Equatable {
    /// The file being read (`-` for stdin).
    public var path: String
    /// Bytes of this file read so far.
    public var bytesDone: Int
    /// The size of this file in bytes; 0 when unknown (stdin, a pipe).
    public var bytesTotal: Int
    /// Bytes read so far in all files, this one included.
    public var allBytesDone: Int

    /// Creates a progress report.
    public init(path: String, bytesDone: Int, bytesTotal: Int, allBytesDone: Int) {
        self.path = path
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.allBytesDone = allBytesDone
    }
}
