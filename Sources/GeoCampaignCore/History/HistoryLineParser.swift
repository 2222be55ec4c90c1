/// A parser of one history line (`JSONLineParser`) or CSV row (`CSVRowParser`): the raw entry
/// point the readers call, which leaves its results in the parser, and the line-level entry
/// point built on it, which gives them as a value.
protocol HistoryLineParser: AnyObject {
    /// Parses `p[0..<n]`; results are left in `fix`, `userPtr`/`userLen` or `reason`/`detail`.
    func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONLineParser.Status
    /// The fix of the last accepted line.
    var fix: Fix { get }
    /// The user id bytes of the last accepted line, valid until the next call.
    var userPtr: UnsafePointer<UInt8> { get }
    var userLen: Int { get }
    /// The reason and detail of the last rejected line.
    var reason: RejectReason { get }
    var detail: String { get }
}

extension HistoryLineParser {
    /// `parse(_:_:)` on `bytes` (a line without its line end), its results as a value.
    func outcome(_ bytes: [UInt8]) -> JSONLineParser.Outcome {
        bytes.withUnsafeBufferPointer { buf -> JSONLineParser.Outcome in
            guard let base = buf.baseAddress, buf.count > 0 else { return .blank }
            switch parse(base, buf.count) {
            case .blank: return .blank
            case .rejected: return .rejected(reason, detail: detail)
            case .accepted:
                let user = String(decoding: UnsafeBufferPointer(start: userPtr, count: userLen), as: UTF8.self)
                return .accepted(user: user, fix: fix)
            }
        }
    }
}
