// CSV: the input as a CSV history file through the whole-file reader (header, separator,
// RFC 4180 quoting across lines, per-row rejects), and each of its lines as a data row under the
// first line as header through the row parser.
// seeds: fuzz/seeds/*.csv Tests/Data/tracks/*/*.csv
// max_len: 8192
@testable import GeoCampaignCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVRow(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    let header = lines.first ?? []
    let parser = CSVRowParser(header: header, fields: HistoryFields())
    for row in lines.dropFirst() { _ = parser.parse(row: row) }
    let path = FuzzInput.write(bytes, as: "history.csv")
    let builder = HistoryBuilder()
    builder.threads = 1
    builder.onReject = { r in _ = r.detail }
    _ = try? builder.read(path: path)
    _ = builder.finish()
    return 0
}
