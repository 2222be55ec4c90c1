import Foundation

/// Evaluates `during` (semantics 3.5): local wall-clock windows in a zone, on each listed day,
/// from the start of `hours` (inclusive) to its end (exclusive). An end at or before the start runs
/// past midnight and belongs to the start's day; `24:00` is the next midnight.
///
///     during: { days: [wed, thu, fri], hours: "22:00-02:00", timezone: America/Los_Angeles }
///     Wed 22:00 -> Thu 02:00 local, Thu 22:00 -> Fri 02:00, Fri 22:00 -> Sat 02:00
///     during: { hours: "02:30-03:30" } on the spring-forward day: [03:00 PDT, 03:30 PDT)
///     (02:30 does not exist and is read as the instant the clocks jump to, 03:00 PDT)
final class DuringEvaluator: Sendable {
    let condition: DuringCondition
    let clock: LocalTime
    /// Windows already computed, shared by every user (time zone look-ups are costly).
    let cache = WindowCache()

    init(_ condition: DuringCondition) {
        self.condition = condition
        clock = LocalTime(zone: TimeZone(identifier: condition.timezone) ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current)
    }

    /// The windows of local days `first ... last` computed once for a contiguous range of days
    /// (at most `maxDays`) and shared across users and threads; ranges beyond that are computed
    /// each time.
    final class WindowCache: @unchecked Sendable {
        static let maxDays: Int64 = 20_000
        private let lock = NSLock()
        private var firstDay: Int64 = 0
        private var windows: [Interval?] = []

        /// The windows of days `first ... last`, in day order, from `compute` or the cache.
        func windows(_ first: Int64, _ last: Int64, _ compute: (Int64) -> Interval?) -> [Interval] {
            lock.lock()
            defer { lock.unlock() }
            if windows.isEmpty {
                firstDay = first
            }
            let lo = min(firstDay, first), hi = max(firstDay + Int64(windows.count) - 1, last)
            guard hi - lo < Self.maxDays else {
                var raw: [Interval] = []
                var day = first
                while day <= last {
                    if let w = compute(day) { raw.append(w) }
                    day += 1
                }
                return raw
            }
            if lo < firstDay {
                var before: [Interval?] = []
                var day = lo
                while day < firstDay { before.append(compute(day)); day += 1 }
                windows = before + windows
                firstDay = lo
            }
            var day = firstDay + Int64(windows.count)
            while day <= hi { windows.append(compute(day)); day += 1 }
            var raw: [Interval] = []
            for d in first...last { if let w = windows[Int(d - firstDay)] { raw.append(w) } }
            return raw
        }
    }

    /// The window of local day `day`, or nil when the day is not listed or the window is empty.
    func window(onDay day: Int64) -> Interval? {
        guard condition.days.contains(LocalTime.isoWeekday(ofDay: day)) else { return nil }
        let startLocal = day * 86_400 + Int64(condition.startMinute) * 60
        let endDay = condition.endMinute <= condition.startMinute ? day + 1 : day
        let endLocal = endDay * 86_400 + Int64(condition.endMinute) * 60
        let start = clock.instant(ofLocalSecond: startLocal) * 1000
        let end = clock.instant(ofLocalSecond: endLocal) * 1000
        return start < end ? Interval(start, end) : nil
    }

    /// Windows of the local days around the timeline, clipped to it.
    /// - Complexity: O(days of the timeline) zone look-ups.
    func intervals(_ ctx: EvaluationContext) -> IntervalSet {
        guard ctx.domain.start < ctx.domain.end else { return .empty }
        let first = clock.localDay(ofMs: ctx.domain.start) - 1
        let last = clock.localDay(ofMs: ctx.domain.end - 1)
        guard first <= last else { return IntervalSet([]).clipped(to: ctx.domain) }
        let raw = cache.windows(first, last) { window(onDay: $0) }
        return IntervalSet(raw).clipped(to: ctx.domain)
    }
}
