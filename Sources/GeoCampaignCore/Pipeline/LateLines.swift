/// Finds the lines of late fixes (state.md 1.2) for the rejects file: a second reading of the
/// batch's JSON Lines files, done only when the state rejected some fix as late.
enum LateLines {
    /// The rejected lines of accepted fixes of user u earlier than `lateBefore[u]`, in file
    /// and line order (users told apart by their ids' bytes, as the replay tells them).
    /// - Complexity: O(batch bytes).
    static func find(paths: [String], fields: HistoryFields, lateBefore: [UserKey: Int64]) throws -> [RejectedLine] {
        var out: [RejectedLine] = []
        let parser = JSONLineParser(fields: fields)
        for path in paths where !HistoryBuilder.isGPX(path: path) {
            let input = try OpenedInput(path: path)
            try withExtendedLifetime(input) {
                let reader = try BlockLineReader(fd: input.fd, path: path)
                try reader.forEachLine { lineNo, p, n in
                    let line = Array(UnsafeBufferPointer(start: p, count: n))
                    guard case let .accepted(user, fix) = parser.parse(line: line), let before = lateBefore[UserKey(user)], fix.time < before else { return }
                    out.append(RejectedLine(path: path, line: lineNo, reason: .late,
                                            detail: "\(Timestamp.string(fix.time)) is earlier than this user's last fix in the state, \(Timestamp.string(before))",
                                            text: line))
                }
            }
        }
        return out
    }
}
