import Dispatch

/// Every user's accepted fixes packed in a few large buffers, each user's fixes contiguous and
/// sorted by time as in `History`: what a batch replay reads (`HistoryBuilder.finishPacked()`).
/// Unlike `History` there is no array per user: no allocation per user, and the buffers are
/// mappings that may use huge pages, so their first touch costs few page faults. When the input
/// was grouped by user, the buffers are the ones the fixes were parsed into (not copied again).
///
/// Immutable once built; its fixes stay valid as long as it is alive.
final class PackedHistory: @unchecked Sendable {
    /// Where one user's fixes are: `count` fixes from `start` in `columns[column]`.
    struct Place {
        var column: Int
        var start: Int
        var count: Int
    }

    /// User ids; the index is the user number.
    let userIds: [String]
    /// What reading found.
    let stats: HistoryStats
    /// Whether the fixes were moved to one buffer by a counting sort (the input was not grouped
    /// by user), rather than kept in the buffers they were parsed into.
    let regrouped: Bool
    /// The place of each user's fixes.
    private let places: [Place]
    private let columns: [MappedColumn<Fix>]

    /// Takes `columns`, which hold user `k`'s fixes at `places[k]`.
    init(userIds: [String], places: [Place], columns: [MappedColumn<Fix>], regrouped: Bool, stats: HistoryStats) {
        precondition(places.count == userIds.count)
        self.userIds = userIds
        self.regrouped = regrouped
        self.places = places
        self.columns = columns
        self.stats = stats
    }

    /// Number of users.
    var userCount: Int { userIds.count }

    /// Calls `body` with the fixes of user `user` (valid only during the call).
    @inline(__always)
    func withFixes<R>(of user: Int, _ body: (UnsafeBufferPointer<Fix>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) {
            let p = places[user]
            return try body(UnsafeBufferPointer(start: columns[p.column].base + p.start, count: p.count))
        }
    }

    /// The same history with one array per user, copied on `threads` threads. The packed history is
    /// spent: its pages are handed back as they are copied, so the fixes are never held twice.
    /// - Complexity: O(n).
    func unpack(threads: Int) -> History {
        let users = userIds.count
        let all = places.reduce(0) { $0 + $1.count }
        let workers = max(1, min(threads, users))
        // Users in `workers` runs of about equal fix counts, each run copied by one thread.
        var runs = [0]
        var seen = 0
        for (u, p) in places.enumerated() {
            if runs.count < workers && u > runs[runs.count - 1] && seen >= all / workers * runs.count { runs.append(u) }
            seen += p.count
        }
        runs.append(users)
        let out = UnsafeMutablePointer<[[Fix]]>.allocate(capacity: runs.count - 1)
        out.initialize(repeating: [], count: runs.count - 1)
        defer {
            out.deinitialize(count: runs.count - 1)
            out.deallocate()
        }
        let copy = { (w: Int) in
            var groups: [[Fix]] = []
            groups.reserveCapacity(runs[w + 1] - runs[w])
            // The stretch of one column copied since pages were last handed back.
            var pending = Place(column: -1, start: 0, count: 0)
            for u in runs[w]..<runs[w + 1] {
                groups.append(self.withFixes(of: u) { Array($0) })
                let p = self.places[u]
                if p.column == pending.column && p.start == pending.start + pending.count {
                    pending.count += p.count
                } else {
                    self.release(pending)
                    pending = p
                }
                if pending.count >= 1 << 15 {
                    self.release(pending)
                    pending = Place(column: -1, start: 0, count: 0)
                }
            }
            out[w] = groups
        }
        if runs.count - 1 == 1 {
            copy(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: runs.count - 1) { w in copy(w) }
        }
        for c in columns { c.releaseAll() }
        var fixes: [[Fix]] = []
        fixes.reserveCapacity(users)
        for w in 0..<(runs.count - 1) {
            fixes += out[w]
            out[w] = []
        }
        return History(userIds: userIds, fixes: fixes, stats: stats)
    }

    /// Hands back the whole pages inside `p` (none when its column is -1).
    private func release(_ p: Place) {
        if p.column >= 0 { columns[p.column].releasePages(from: p.start, to: p.start + p.count) }
    }
}
