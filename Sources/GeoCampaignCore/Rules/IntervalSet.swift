/// A set of instants as sorted, disjoint, non-adjacent half-open intervals `[start, end)` of Unix
/// milliseconds (semantics 3). `Int64.max` as an end stands for "forever".
///
/// Adjacent intervals `[a, b)` and `[b, c)` are merged into one maximal interval `[a, c)`, so
/// `starts` are exactly the instants a condition becomes true.
///
/// A user's timeline `[T0, Tend]` is closed at `Tend`; at millisecond resolution it is the
/// half-open domain `[T0, Tend + 1)` (see `IntervalSet.timeline(t0:tEnd:)`).
///
///     let a = IntervalSet([Interval(0, 10), Interval(10, 20)])   // [0, 20)
///     a.starts                                                  // [0]
///     a.complement(within: Interval(0, 30))                     // [20, 30)
public struct IntervalSet: Sendable, Equatable {
    /// The maximal intervals, sorted by start; never empty, never overlapping or touching.
    public private(set) var intervals: [Interval]

    /// The empty set.
    public static let empty = IntervalSet()

    /// The empty set.
    public init() { intervals = [] }

    /// The union of the given intervals (any order, overlaps and empty intervals allowed).
    /// - Complexity: O(n log n).
    public init(_ raw: [Interval]) {
        var sorted = raw
        var n = 0
        var inOrder = true
        for iv in raw where iv.start < iv.end {
            if n > 0 && iv.start < sorted[n - 1].start { inOrder = false }
            sorted[n] = iv
            n += 1
        }
        sorted.removeSubrange(n...)
        // Visits come ordered by enter, so the spans mostly are already in order.
        if !inOrder { sorted.sort { $0.start < $1.start } }
        var out = 0
        for k in sorted.indices {
            let iv = sorted[k]
            if out > 0 && iv.start <= sorted[out - 1].end {
                if iv.end > sorted[out - 1].end { sorted[out - 1].end = iv.end }
            } else {
                sorted[out] = iv
                out += 1
            }
        }
        sorted.removeSubrange(out...)
        intervals = sorted
    }

    /// Wraps intervals already sorted, disjoint and non-adjacent.
    init(normalized: [Interval]) { intervals = normalized }

    /// One interval `[start, end)` (empty when `end <= start`).
    public init(start: Int64, end: Int64) {
        intervals = start < end ? [Interval(start, end)] : []
    }

    /// The half-open domain `[t0, tEnd + 1)` of a user's timeline `[T0, Tend]`, closed at `Tend`.
    public static func timeline(t0: Int64, tEnd: Int64) -> Interval {
        Interval(t0, tEnd == Int64.max ? Int64.max : tEnd + 1)
    }

    /// True when no instant is in the set.
    public var isEmpty: Bool { intervals.isEmpty }

    /// The starts of the maximal intervals: the instants the set becomes true.
    public var starts: [Int64] { intervals.map(\.start) }

    /// Whether instant `t` is in the set.
    /// - Complexity: O(log n).
    public func contains(_ t: Int64) -> Bool {
        var lo = 0, hi = intervals.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if intervals[mid].end <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo < intervals.count && intervals[lo].start <= t
    }

    /// Instants in either set.
    /// - Complexity: O(n + m).
    public func union(_ other: IntervalSet) -> IntervalSet {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var out: [Interval] = []
        out.reserveCapacity(intervals.count + other.intervals.count)
        var i = 0, j = 0
        while i < intervals.count || j < other.intervals.count {
            let next: Interval
            if j >= other.intervals.count || (i < intervals.count && intervals[i].start <= other.intervals[j].start) {
                next = intervals[i]; i += 1
            } else {
                next = other.intervals[j]; j += 1
            }
            if let last = out.last, next.start <= last.end {
                if next.end > last.end { out[out.count - 1].end = next.end }
            } else {
                out.append(next)
            }
        }
        return IntervalSet(normalized: out)
    }

    /// Instants in both sets.
    /// - Complexity: O(n + m).
    public func intersection(_ other: IntervalSet) -> IntervalSet {
        if isEmpty || other.isEmpty { return .empty }
        if other.intervals.count == 1 { return clipped(to: other.intervals[0]) }
        if intervals.count == 1 { return other.clipped(to: intervals[0]) }
        var out: [Interval] = []
        out.reserveCapacity(intervals.count + other.intervals.count)
        var i = 0, j = 0
        while i < intervals.count && j < other.intervals.count {
            let a = intervals[i], b = other.intervals[j]
            let s = max(a.start, b.start), e = min(a.end, b.end)
            if s < e { out.append(Interval(s, e)) }
            if a.end < b.end { i += 1 } else { j += 1 }
        }
        return IntervalSet(normalized: out)
    }

    /// The instants of `domain` not in the set.
    /// - Complexity: O(n).
    public func complement(within domain: Interval) -> IntervalSet {
        var out: [Interval] = []
        var cursor = domain.start
        for iv in intervals {
            if iv.end <= cursor { continue }
            if iv.start >= domain.end { break }
            if iv.start > cursor { out.append(Interval(cursor, iv.start)) }
            cursor = max(cursor, iv.end)
            if cursor >= domain.end { break }
        }
        if cursor < domain.end { out.append(Interval(cursor, domain.end)) }
        return IntervalSet(normalized: out)
    }

    /// The set restricted to `domain`.
    /// - Complexity: O(n).
    public func clipped(to domain: Interval) -> IntervalSet {
        guard let first = intervals.first, let last = intervals.last, domain.start < domain.end else { return .empty }
        // Already within the domain (the usual case): the same set, no copy.
        if first.start >= domain.start && last.end <= domain.end { return self }
        var out: [Interval] = []
        out.reserveCapacity(intervals.count)
        for iv in intervals {
            let s = max(iv.start, domain.start), e = min(iv.end, domain.end)
            if s < e { out.append(Interval(s, e)) }
        }
        return IntervalSet(normalized: out)
    }

    /// The maximal interval holding `t`, if any.
    public func interval(containing t: Int64) -> Interval? {
        intervals.first { $0.start <= t && t < $0.end }
    }
}
