extension HistoryChunk {
    /// Parses one CSV row: the first non-blank row of a file is its header (see `CSVRowParser`).
    /// Lines are not counted here: the reader counts them (a row may span several).
    @inline(__always)
    func handleCSV(_ path: String, _ lineNo: Int, _ p: UnsafePointer<UInt8>, _ n: Int,
                   _ onReject: ((RejectedLine) throws -> Void)?) throws {
        let csv = self.csv
        if csv.awaitingHeader {
            if CSVRowParser.isBlankRow(p, n) {
                stats.blankLines += 1
            } else if let problem = csv.setHeader(p, n) {
                try rejected(RejectedLine(path: path, line: lineNo, reason: csv.headerProblemReason, detail: problem,
                                          text: Array(UnsafeBufferPointer(start: p, count: n))), onReject)
            }
            return
        }
        try take(csv, path, lineNo, p, n, onReject)
    }

    /// A line or row over the limit (`BlockLineReader.onTooLong`): rejected `too_long` with its
    /// first bytes as text. A JSON Lines line is counted here; a CSV header that is too long
    /// leaves the file without a usable header.
    func handleTooLong(_ path: String, _ lineNo: Int, _ prefix: UnsafePointer<UInt8>, _ kept: Int, _ length: Int,
                       csv isCSV: Bool, _ onReject: ((RejectedLine) throws -> Void)?) throws {
        let what = isCSV ? "row" : "line"
        if isCSV {
            if csv.awaitingHeader { csv.unusableHeader("the header row (line \(lineNo)) is over 1 MiB") }
        } else {
            lines += 1
            stats.linesRead += 1
        }
        try rejected(.tooLong(path: path, line: lineNo, what: what, prefix: prefix, kept: kept, length: length), onReject)
    }
}
