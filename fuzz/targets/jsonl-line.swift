// JSON Lines: each line of the input through the history line parser (the path the reader takes).
// seeds-by-line: Tests/GeoCampaignCoreTests/Fixtures/History/*.jsonl examples/*.jsonl ../shared/spec/examples/*/*.jsonl
// max_len: 4096
@testable import GeoCampaignCore

let parser = JSONLineParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var l = Array(line)
        if l.last == 0x0D { l.removeLast() }
        if case .accepted(_, let fix) = parser.parse(line: l) {
            precondition(abs(fix.lat) <= 90 && abs(fix.lon) <= 180, "accepted a fix out of range: \(fix)")
        }
    }
    return 0
}
