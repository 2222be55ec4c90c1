/// Wording shared by the explanations: durations, selectors, intervals.
enum ExplainText {
    /// `72h`, `1h30m`, `5m`, `45s`, `2m30.5s`, `0s`: hours, minutes and seconds, largest first;
    /// whole weeks as `1w`, whole days of four or more as `5d`, as a marketer writes them.
    static func duration(_ ms: Int64) -> String {
        if ms < 0 { return "-" + duration(-ms) }
        if ms == Int64.max { return "forever" }
        let day: Int64 = 86_400_000
        if ms > 0 && ms % (7 * day) == 0 { return "\(ms / (7 * day))w" }
        if ms >= 4 * day && ms % day == 0 { return "\(ms / day)d" }
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, millis = ms % 60_000
        var out = ""
        if hours > 0 { out += "\(hours)h" }
        if minutes > 0 { out += "\(minutes)m" }
        if millis > 0 || out.isEmpty {
            let s = millis / 1000, frac = millis % 1000
            if frac == 0 {
                out += "\(s)s"
            } else {
                var f = String(frac + 1000).dropFirst()
                while f.hasSuffix("0") { f = f.dropLast() }
                out += "\(s).\(f)s"
            }
        }
        return out
    }

    /// `gym`, `gym or juice-bar`, `car-dealer regions`, `dealer-2 or car-dealer regions`.
    static func selector(_ s: RegionSelector) -> String {
        var words = s.regions
        if !s.tags.isEmpty { words.append(s.tags.joined(separator: " or ") + " regions") }
        return words.isEmpty ? "no region" : words.joined(separator: " or ")
    }

    /// An instant in the local `time` format (`2026-03-09 13:38:16 PST`), or RFC 3339 UTC without one.
    static func instant(_ ms: Int64, _ time: LocalTimeFormat?) -> String {
        time?.string(ms) ?? Timestamp.string(ms)
    }

    /// `2026-03-09T21:38:16Z to 2026-03-09T22:00:33Z`, or `... to the end of the history`; in
    /// local time with `time`.
    static func interval(_ i: Interval, tEnd: Int64, time: LocalTimeFormat? = nil) -> String {
        instant(i.start, time) + " to " + (i.end > tEnd ? "the end of the history" : instant(i.end, time))
    }

    /// `held 2 times: A to B; C to D` (the first five intervals, then how many more).
    static func held(_ intervals: [Interval], tEnd: Int64, time: LocalTimeFormat? = nil) -> String {
        let times = intervals.count == 1 ? "once" : "\(intervals.count) times"
        let shown = intervals.prefix(5).map { interval($0, tEnd: tEnd, time: time) }.joined(separator: "; ")
        return "held \(times): " + shown + (intervals.count > 5 ? "; and \(intervals.count - 5) more" : "")
    }

    /// `mon, tue` for ISO weekdays, `every day` for all seven.
    static func days(_ days: Set<Int>) -> String {
        if days.count == 7 { return "every day" }
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        return days.sorted().compactMap { (1...7).contains($0) ? names[$0 - 1] : nil }.joined(separator: ", ")
    }

    /// `05:00-07:00`, `22:00-02:00`, `00:00-24:00`.
    static func hours(_ start: Int, _ end: Int) -> String {
        func hhmm(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        return hhmm(start) + "-" + hhmm(end)
    }
}
