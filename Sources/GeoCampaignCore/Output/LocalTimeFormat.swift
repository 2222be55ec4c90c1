import Foundation

/// Instants written for a person in one time zone, with the zone's abbreviation:
/// `2026-11-17 11:06 PST`, `2026-11-17 11:06:24 PST`, or the clock alone, `11:06 PST`
/// (seconds only when not zero, milliseconds only when not zero). Machine outputs stay RFC 3339
/// UTC (`Timestamp`); this is for `explain`, `simulate`, `test` and the report.
///
/// It also reads the local times people write in test files: `2026-11-17 11:06`,
/// `2026-11-17T11:06:24`, a date alone (local midnight), or an RFC 3339 instant with `Z` or an
/// offset. A local time that does not exist (clocks jump forward) is the instant the clocks jump
/// to; one that occurs twice is its first occurrence (semantics 3.5, via `LocalTime`).
///
///     let f = LocalTimeFormat(zone: "Europe/Zurich")!
///     f.string(1_355_484_240_000)   // "2012-12-14 12:24 CET"
///     f.clock(1_355_484_240_000)    // "12:24 CET"
public struct LocalTimeFormat: Sendable {
    /// The IANA zone name.
    public let zone: String
    let clockZone: LocalTime
    let abbreviations: ZoneAbbreviations

    /// UTC, abbreviated `UTC`.
    public static let utc = LocalTimeFormat(zone: "UTC") ?? LocalTimeFormat(utcFallback: ())

    /// The format of IANA zone `zone`; nil when the name is unknown, or is a fixed offset such
    /// as `UTC+1` or `GMT+01:00` (Foundation takes those, an hour off every summer; `Etc/GMT-1`
    /// is the IANA name of a deliberate fixed offset).
    public init?(zone: String) {
        guard CampaignDecoder.fixedOffset(zone) == nil, let tz = TimeZone(identifier: zone) else { return nil }
        self.zone = zone
        clockZone = LocalTime(zone: tz)
        abbreviations = ZoneAbbreviations(identifier: zone)
    }

    private init(utcFallback: Void) {
        zone = "UTC"
        clockZone = LocalTime(zone: TimeZone(secondsFromGMT: 0) ?? TimeZone.current)
        abbreviations = ZoneAbbreviations(identifier: "UTC")
    }

    /// The zone's abbreviation at instant `ms` (`CET`, `CEST`); `UTC+05:30` style when the
    /// system has no name for it.
    public func abbreviation(_ ms: Int64) -> String {
        let s = floorDiv(ms, 1000)
        let offset = clockZone.offset(atSecond: s)
        if zone == "UTC" || zone == "Etc/UTC" { return "UTC" }
        let dst = clockZone.zone.isDaylightSavingTime(for: Date(timeIntervalSince1970: Double(s)))
        if let a = abbreviations.abbreviation(offsetS: offset, isDST: dst) { return a }
        let sign = offset < 0 ? "-" : "+", m = abs(offset) / 60
        return "UTC" + sign + two(m / 60) + ":" + two(m % 60)
    }

    /// `2026-11-17 11:06 PST` (with `:24` seconds, `.250` milliseconds when not zero).
    public func string(_ ms: Int64) -> String {
        let (day, clock) = parts(ms)
        return day + " " + clock + " " + abbreviation(ms)
    }

    /// `11:06 PST`: the clock and the abbreviation, for an instant whose day is already clear.
    public func clock(_ ms: Int64) -> String {
        parts(ms).clock + " " + abbreviation(ms)
    }

    /// `Tue 2026-11-17`: the local weekday and date.
    public func day(_ ms: Int64) -> String {
        let localDay = clockZone.localDay(ofMs: ms)
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return names[LocalTime.isoWeekday(ofDay: localDay) - 1] + " " + parts(ms).day
    }

    private func parts(_ ms: Int64) -> (day: String, clock: String) {
        let s = floorDiv(ms, 1000)
        let local = s + clockZone.offset(atSecond: s)
        let (y, mo, d) = Timestamp.civil(fromDays: floorDiv(local, 86_400))
        let sec = local - floorDiv(local, 86_400) * 86_400
        let frac = ms - s * 1000
        var clock = two(sec / 3600) + ":" + two(sec / 60 % 60)
        if sec % 60 != 0 || frac != 0 { clock += ":" + two(sec % 60) }
        if frac != 0 { clock += "." + String(String(frac + 1000).dropFirst()) }
        let year = String(y)
        return (String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(mo) + "-" + two(d), clock)
    }

    private func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Reads a time a person wrote: an RFC 3339 instant (with `Z` or an offset), a local
    /// `YYYY-MM-DD HH:MM[:SS[.fff]]` (space or `T`), or a date alone (local midnight).
    /// - Returns: Unix milliseconds, or nil when the text is none of these.
    public func parse(_ text: String) -> Int64? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let ms = RFC3339.parse(s) { return ms }
        let c = Array(s.utf8)
        func num(_ from: Int, _ len: Int) -> Int64? {
            guard from + len <= c.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + len) {
                guard c[i] >= 0x30 && c[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(c[i] - 0x30)
            }
            return v
        }
        guard c.count >= 10, let y = num(0, 4), c[4] == 0x2D, let mo = num(5, 2), c[7] == 0x2D, let d = num(8, 2),
              (1...12).contains(mo), (1...31).contains(d), y >= 1 else { return nil }
        let days = Timestamp.days(year: y, month: mo, day: d)
        guard Timestamp.civil(fromDays: days) == (y, mo, d) else { return nil }
        var seconds: Int64 = 0, fracMs: Int64 = 0
        if c.count > 10 {
            guard c.count >= 16, c[10] == 0x20 || c[10] == 0x54, let h = num(11, 2), c[13] == 0x3A, let mi = num(14, 2),
                  h < 24, mi < 60 else { return nil }
            seconds = h * 3600 + mi * 60
            var i = 16
            if i < c.count {
                guard c[i] == 0x3A, let sec = num(i + 1, 2), sec < 60 else { return nil }
                seconds += sec
                i += 3
                if i < c.count {
                    guard c[i] == 0x2E, i + 1 < c.count else { return nil }
                    var digits: [Int64] = []
                    for k in (i + 1)..<c.count {
                        guard c[k] >= 0x30 && c[k] <= 0x39 else { return nil }
                        digits.append(Int64(c[k] - 0x30))
                    }
                    let p = digits + [0, 0, 0]
                    fracMs = p[0] * 100 + p[1] * 10 + p[2]
                }
            }
        }
        return clockZone.instant(ofLocalSecond: days * 86_400 + seconds) * 1000 + fracMs
    }
}
