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
}
