/// Finds the lines of late fixes (state.md 1.2) for the rejects file: a second reading of the
/// batch's JSON Lines and CSV files, done only when the state rejected some fix as late. (A GPX
/// file has no line numbers for its points: its late points are counted, not listed.)
enum LateLines {
    /// The rejected lines of accepted fixes of user u earlier than `lateBefore[u]`, in file
    /// and line order (users told apart by their ids' bytes, as the replay tells them). CSV
    /// rows are read as the history reader reads them: the first non-blank row is the header,
    /// and a row's line is the number of its first line.
    /// - Complexity: O(batch bytes).
    static func find(paths: [String], fields: HistoryFields, lateBefore: [UserKey: Int64]) throws -> [RejectedLine] {
        var out: [RejectedLine] = []
        for path in paths {
            let format = HistoryFormat.of(path: path, forced: fields.format)
            guard format != .gpx else { continue }
            let input = try OpenedInput(path: path)
            try withExtendedLifetime(input) {
                let reader = try BlockLineReader(fd: input.fd, path: path, quoted: format == .csv)
                let take: (Int, UnsafePointer<UInt8>, Int, String, Fix) -> Void = { lineNo, p, n, user, fix in
                    guard let before = lateBefore[UserKey(user)], fix.time < before else { return }
                    out.append(RejectedLine(path: path, line: lineNo, reason: .late,
                                            detail: "\(Timestamp.string(fix.time)) is earlier than this user's last fix in the state, \(Timestamp.string(before))",
                                            text: Array(UnsafeBufferPointer(start: p, count: n))))
                }
                if format == .csv {
                    let csv = CSVRowParser(fields: fields)
                    csv.beginFile()
                    reader.onTooLong = { lineNo, _, _, _ in
                        if csv.awaitingHeader { csv.unusableHeader("the header row (line \(lineNo)) is over 1 MiB") }
                    }
                    try reader.forEachLine { lineNo, p, n in
                        if csv.awaitingHeader {
                            if !CSVRowParser.isBlankRow(p, n) { _ = csv.setHeader(p, n) }
                            return
                        }
                        guard case .accepted = csv.parse(p, n) else { return }
                        take(lineNo, p, n, String(decoding: UnsafeBufferPointer(start: csv.userPtr, count: csv.userLen), as: UTF8.self), csv.fix)
                    }
                } else {
                    let parser = JSONLineParser(fields: fields)
                    try reader.forEachLine { lineNo, p, n in
                        let line = Array(UnsafeBufferPointer(start: p, count: n))
                        guard case let .accepted(user, fix) = parser.parse(line: line) else { return }
                        take(lineNo, p, n, user, fix)
                    }
                }
            }
        }
        return out
    }
}
