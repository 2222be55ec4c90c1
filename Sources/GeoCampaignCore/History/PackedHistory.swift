import Dispatch

/// Every user's accepted fixes packed in one buffer, user after user, each user's fixes sorted by
/// time as in `History`: what a batch replay reads (`HistoryBuilder.finishPacked()`). Unlike
/// `History` there is no array per user: no allocation per user, and the buffer is one mapping
/// that may use huge pages, so its first touch costs few page faults.
///
/// Immutable once built; its fixes stay valid as long as it is alive.
final class PackedHistory: @unchecked Sendable {
    /// User ids; the index is the user number.
    let userIds: [String]
    /// What reading found.
    let stats: HistoryStats
    /// User `k`'s fixes are `column.base[starts[k] ..< starts[k + 1]]`.
    private let starts: [Int]
    private let column: MappedColumn<Fix>

    /// Takes `column`, which holds user `k`'s fixes at `starts[k] ..< starts[k + 1]`.
    init(userIds: [String], starts: [Int], column: MappedColumn<Fix>, stats: HistoryStats) {
        precondition(starts.count == userIds.count + 1)
        self.userIds = userIds
        self.starts = starts
        self.column = column
        self.stats = stats
    }

    /// Number of users.
    var userCount: Int { userIds.count }

    /// Number of fixes in all.
    var fixCount: Int { starts[userIds.count] }

    /// Calls `body` with the fixes of user `user` (valid only during the call).
    @inline(__always)
    func withFixes<R>(of user: Int, _ body: (UnsafeBufferPointer<Fix>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) {
            try body(UnsafeBufferPointer(start: column.base + starts[user], count: starts[user + 1] - starts[user]))
        }
    }

    /// The same history with one array per user, copied on `threads` threads. The packed history is
    /// spent: its pages are handed back as they are copied, so the fixes are never held twice.
    /// - Complexity: O(n).
    func unpack(threads: Int) -> History {
        let users = userIds.count
        let workers = max(1, min(threads, users))
        // Users in `workers` runs of about equal fix counts, each run copied by one thread.
        var runs = [0]
        for w in 1..<workers {
            var u = runs[w - 1]
            while u < users && starts[u] < fixCount / workers * w { u += 1 }
            runs.append(u)
        }
        runs.append(users)
        let out = UnsafeMutablePointer<[[Fix]]>.allocate(capacity: workers)
        out.initialize(repeating: [], count: workers)
        defer {
            out.deinitialize(count: workers)
            out.deallocate()
        }
        let copy = { (w: Int) in
            var groups: [[Fix]] = []
            groups.reserveCapacity(runs[w + 1] - runs[w])
            var released = self.starts[runs[w]]
            for u in runs[w]..<runs[w + 1] {
                groups.append(self.withFixes(of: u) { Array($0) })
                let end = self.starts[u + 1]
                if end - released >= 1 << 15 {
                    self.column.releasePages(from: released, to: end)
                    released = end
                }
            }
            out[w] = groups
        }
        if workers == 1 {
            copy(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { w in copy(w) }
        }
        column.releaseAll()
        var fixes: [[Fix]] = []
        fixes.reserveCapacity(users)
        for w in 0..<workers {
            fixes += out[w]
            out[w] = []
        }
        return History(userIds: userIds, fixes: fixes, stats: stats)
    }
}
