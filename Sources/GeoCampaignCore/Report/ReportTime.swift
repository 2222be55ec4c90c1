/// Every time a person reads in the report goes through `wallClock` and `text`: in the zone
/// `format` holds while the page is rendered (the campaigns' zone, or `--tz`; UTC by default),
/// with the zone's abbreviation, as `explain` writes them (`LocalTimeFormat`).
///
///     ReportTime.text(1772470055000)           // "2026-03-02 16:47 UTC"
///     ReportTime.dayLabel(ReportTime.day(1772470055000))   // "Mon 2 Mar 2026"
public enum ReportTime {
    /// The zone of the page being rendered: `ReportTime.$format.withValue(f) { ... }`.
    @TaskLocal public static var format: LocalTimeFormat = .utc

    /// The name of the zone the report's times are in, as the page says it.
    public static var zoneName: String { format.zone }

    /// The wall-clock reading of instant `ms` in `format`'s zone: the local day (days since
    /// 1970-01-01) and the minute of that day.
    public static func wallClock(_ ms: Int64) -> (day: Int64, minute: Int) {
        var s = ms / 1000
        if ms % 1000 < 0 { s -= 1 }
        s += format.clockZone.offset(atSecond: s)
        var day = s / 86_400, rem = s % 86_400
        if rem < 0 { rem += 86_400; day -= 1 }
        return (day, Int(rem / 60))
    }

    /// The local day holding `ms`.
    public static func day(_ ms: Int64) -> Int64 { wallClock(ms).day }

    /// "2026-03-02 16:47 UTC": to the minute, in `format`'s zone, with its abbreviation.
    public static func text(_ ms: Int64) -> String {
        let (day, minute) = wallClock(ms)
        return date(day) + " " + two(minute / 60) + ":" + two(minute % 60) + " " + format.abbreviation(ms)
    }

    /// "2026-03-02".
    public static func date(_ day: Int64) -> String {
        let (y, m, d) = Timestamp.civil(fromDays: day)
        return "\(y)-" + two(Int(m)) + "-" + two(Int(d))
    }

    /// "Mon 2 Mar 2026".
    public static func dayLabel(_ day: Int64) -> String {
        let (y, m, d) = Timestamp.civil(fromDays: day)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let wd = Int(((day % 7) + 7) % 7)
        return "\(weekdays[wd]) \(d) \(months[Int(m) - 1]) \(y)"
    }

    /// "3 Mar".
    public static func shortDay(_ day: Int64) -> String {
        let (_, m, d) = Timestamp.civil(fromDays: day)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(d) \(months[Int(m) - 1])"
    }

    /// A duration for people: "45 s", "12 min", "2 h 5 min", "3 d 4 h".
    public static func duration(_ ms: Int64) -> String {
        let s = max(0, ms / 1000)
        if s < 60 { return "\(s) s" }
        let m = s / 60
        if m < 60 { return "\(m) min" }
        let h = m / 60
        if h < 48 { return m % 60 == 0 ? "\(h) h" : "\(h) h \(m % 60) min" }
        return h % 24 == 0 ? "\(h / 24) d" : "\(h / 24) d \(h % 24) h"
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
