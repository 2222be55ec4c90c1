/// A rejected history line, as delivered to the reject handler (formats.md 2.1).
public struct RejectedLine: Sendable, Equatable {
    /// The history file path as given (`-` for stdin).
    public var path: String
    /// 1-based line number, counting every line of that file (blank ones included). For GPX, the
    /// XML line of the offending point.
    public var line: Int
    /// Why the line was rejected.
    public var reason: RejectReason
    /// A human-readable explanation.
    public var detail: String
    /// The original line bytes, without the line terminator (and without a leading BOM).
    public var text: [UInt8]

    /// Creates a rejected-line record.
    public init(path: String, line: Int, reason: RejectReason, detail: String, text: [UInt8]) {
        self.path = path
        self.line = line
        self.reason = reason
        self.detail = detail
        self.text = text
    }

    /// A line or row (`what`) over the limit, as `BlockLineReader.onTooLong` gives it: `too_long`,
    /// with its first `kept` bytes, at `prefix`, as text.
    static func tooLong(path: String, line: Int, what: String, prefix: UnsafePointer<UInt8>, kept: Int,
                        length: Int) -> RejectedLine {
        RejectedLine(path: path, line: line, reason: .tooLong,
                     detail: "\(what) is \(length) bytes, over the limit of 1 MiB; text is its first \(kept) bytes",
                     text: Array(UnsafeBufferPointer(start: prefix, count: kept)))
    }
}
