/// RFC 3339 `date-time` parsing by hand, to Unix milliseconds (formats.md 2.1, semantics.md 0).
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`, with `t` and `z` also allowed in lower
/// case (RFC 3339 5.6). A fraction of any length is rounded to the millisecond from its decimal
/// digits, ties away from zero. Rejected: a space instead of `T`, a missing offset (unless the
/// caller allows it), invalid dates (Feb 30), hour 24, minute 60, second 60 (leap seconds), offsets
/// beyond 23:59, and instants outside 0001-01-01T00:00:00Z ... 9999-12-31T23:59:59.999Z.
public enum RFC3339 {
    /// The first accepted instant, 0001-01-01T00:00:00Z, in Unix milliseconds.
    public static let minMilliseconds: Int64 = -62_135_596_800_000
    /// The last accepted instant, 9999-12-31T23:59:59.999Z, in Unix milliseconds.
    public static let maxMilliseconds: Int64 = 253_402_300_799_999

    /// Parses an RFC 3339 timestamp with offset, for example `2026-11-29T10:00:05.250+01:00`.
    /// - Returns: Unix milliseconds, or nil when `text` is not a valid timestamp in range.
    public static func parse(_ text: String) -> Int64? {
        var s = text
        return s.withUTF8 { buf in
            guard let base = buf.baseAddress else { return nil }
            return parse(base, 0, buf.count, offsetRequired: true)
        }
    }

    /// Parses like `parse(_:)`, but a timestamp without offset is taken as UTC (GPX `<time>`).
    public static func parseAssumingUTC(_ text: String) -> Int64? {
        var s = text
        return s.withUTF8 { buf in
            guard let base = buf.baseAddress else { return nil }
            return parse(base, 0, buf.count, offsetRequired: false)
        }
    }

    @inline(__always)
    static func digit(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int64? {
        let d = p[i] &- 0x30
        return d < 10 ? Int64(d) : nil
    }

    @inline(__always)
    static func two(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int64? {
        guard let a = digit(p, i), let b = digit(p, i + 1) else { return nil }
        return a * 10 + b
    }

    static func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month m: Int64, year y: Int64) -> Int64 {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The last valid date read (`YYYY-MM-DD` as 10 bytes) and its day number: lines of a
    /// history mostly share their date, so its checks and arithmetic are done once.
    struct DateCache {
        var head: UInt64 = 0
        var tail: UInt16 = 0
        var days: Int64 = 0
    }

    /// The day number of the valid date `YYYY-MM-DD` at `p[i..<i + 10]`, or nil.
    static func date(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int64? {
        guard let y1 = two(p, i), let y2 = two(p, i + 2) else { return nil }
        let year = y1 * 100 + y2
        guard p[i + 4] == 0x2D, let month = two(p, i + 5), p[i + 7] == 0x2D, let day = two(p, i + 8) else { return nil }
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return Timestamp.days(year: year, month: month, day: day)
    }

    /// The day number of the date at `p[i..<i + 10]` (see `date`), from `cache` when its first
    /// 10 bytes are those of the last date seen, which then becomes this one.
    @inline(__always)
    static func cachedDate(_ p: UnsafePointer<UInt8>, _ i: Int, cache: inout DateCache) -> Int64? {
        let raw = UnsafeRawPointer(p + i)
        let head = raw.loadUnaligned(as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        if head == cache.head && tail == cache.tail && head != 0 { return cache.days }
        guard let days = date(p, i) else { return nil }
        cache = DateCache(head: head, tail: tail, days: days)
        return days
    }

    /// The common shapes `YYYY-MM-DDTHH:MM:SS[.sss](Z|+HH:MM|-HH:MM)` starting at `p[s]`, reading
    /// no byte at or past `n`: the instant, with `end` set just past the timestamp (then
    /// `end < n`); nil for any other shape or an invalid or out-of-range value. The value is the
    /// one `parse` gives for `p[s..<end]`.
    @inline(__always)
    static func parseCommon(_ p: UnsafePointer<UInt8>, _ s: Int, _ n: Int, cache: inout DateCache,
                            end: inout Int) -> Int64? {
        guard s + 21 <= n else { return nil }
        guard let days = cachedDate(p, s, cache: &cache) else { return nil }
        let raw = UnsafeRawPointer(p + s)
        guard p[s + 10] | 0x20 == 0x74 else { return nil }
        // HH:MM:SS in one word: digits become 0-9 and the colons 0.
        let t = raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self) ^ 0x3030_3A30_303A_3030
        guard ((t & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676 | t) & 0x8080_8080_8080_8080 == 0,
              t & 0x0000_FF00_00FF_0000 == 0 else { return nil }
        let hour = Int64(t & 0xFF) &* 10 &+ Int64((t >> 8) & 0xFF)
        let minute = Int64((t >> 24) & 0xFF) &* 10 &+ Int64((t >> 32) & 0xFF)
        let second = Int64((t >> 48) & 0xFF) &* 10 &+ Int64(t >> 56)
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        var i = s + 19
        var c = p[i]
        var fracMs: Int64 = 0
        if c == 0x2E {
            guard i + 5 <= n else { return nil }
            let d1 = p[i + 1] &- 0x30, d2 = p[i + 2] &- 0x30, d3 = p[i + 3] &- 0x30
            guard d1 < 10, d2 < 10, d3 < 10 else { return nil }
            fracMs = Int64(d1) &* 100 &+ Int64(d2) &* 10 &+ Int64(d3)
            i += 4
            c = p[i]
            if c &- 0x30 < 10 { return nil }
        }
        var offsetMin: Int64 = 0
        if c | 0x20 == 0x7A {
            i += 1
        } else if c == 0x2B || c == 0x2D {
            guard i + 6 <= n, let oh = two(p, i + 1), p[i + 3] == 0x3A, let om = two(p, i + 4),
                  oh <= 23, om <= 59 else { return nil }
            offsetMin = oh * 60 + om
            if c == 0x2D { offsetMin = -offsetMin }
            i += 6
        } else {
            return nil
        }
        guard i < n else { return nil }
        // No overflow: a valid date is within +-4 million days of 1970.
        let secs = days &* 86_400 &+ hour &* 3_600 &+ minute &* 60 &+ second &- offsetMin &* 60
        let ms = secs &* 1_000 &+ fracMs
        guard ms >= minMilliseconds, ms <= maxMilliseconds else { return nil }
        end = i
        return ms
    }

    /// Parses bytes `p[start..<end]`.
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, offsetRequired: Bool) -> Int64? {
        var cache = DateCache()
        return parse(p, start, end, offsetRequired: offsetRequired, cache: &cache)
    }

    /// Parses bytes `p[start..<end]`, reusing the day number of the last date seen by `cache`.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, offsetRequired: Bool,
                      cache: inout DateCache) -> Int64? {
        // Shortest: "YYYY-MM-DDTHH:MM:SS" (19) + "Z".
        guard end - start >= 19 else { return nil }
        var i = start
        guard let days = cachedDate(p, i, cache: &cache) else { return nil }
        guard p[i + 10] | 0x20 == 0x74 else { return nil }
        guard let hour = two(p, i + 11), p[i + 13] == 0x3A, let minute = two(p, i + 14), p[i + 16] == 0x3A,
              let second = two(p, i + 17) else { return nil }
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        i += 19
        var fracMs: Int64 = 0
        if i < end && p[i] == 0x2E {
            i += 1
            let s = i
            var place: Int64 = 100
            while i < end, let d = digit(p, i) {
                if i - s < 3 {
                    fracMs += d * place
                    place /= 10
                } else if i - s == 3 && d >= 5 {
                    fracMs += 1
                }
                i += 1
            }
            if i == s { return nil }
        }
        var offsetMin: Int64 = 0
        if i == end {
            if offsetRequired { return nil }
        } else if p[i] | 0x20 == 0x7A {
            i += 1
        } else if p[i] == 0x2B || p[i] == 0x2D {
            guard end - i >= 6, let oh = two(p, i + 1), p[i + 3] == 0x3A, let om = two(p, i + 4),
                  oh <= 23, om <= 59 else { return nil }
            offsetMin = oh * 60 + om
            if p[i] == 0x2D { offsetMin = -offsetMin }
            i += 6
        } else {
            return nil
        }
        guard i == end else { return nil }
        let secs = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMin * 60
        let ms = secs * 1_000 + fracMs
        guard ms >= minMilliseconds, ms <= maxMilliseconds else { return nil }
        return ms
    }
}
