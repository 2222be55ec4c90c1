/// RFC 3339 formatting of instants in UTC (formats.md 3.1): `2026-11-29T10:42:05Z`, with a
/// millisecond fraction only when it is not zero (`2026-11-29T10:42:05.250Z`).
public enum Timestamp {
    /// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar.
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// (year, month, day) to days since 1970-01-01.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Appends the RFC 3339 UTC text of `ms` (Unix milliseconds).
    public static func append(_ ms: Int64, to out: inout [UInt8]) {
        var days = ms / 86_400_000
        var rem = ms % 86_400_000
        if rem < 0 { rem += 86_400_000; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        let yy = max(0, min(9999, y))
        let s = rem / 1000, frac = rem % 1000
        // "YYYY-MM-DDTHH:MM:SS" then ".sss" when the fraction is not zero, then "Z": built in
        // place, appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { t in
            @inline(__always) func two(_ at: Int, _ v: Int64) {
                t[at] = 0x30 + UInt8(truncatingIfNeeded: v / 10)
                t[at + 1] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
            }
            two(0, yy / 100)
            two(2, yy % 100)
            t[4] = 0x2D; two(5, m); t[7] = 0x2D; two(8, d)
            t[10] = 0x54
            two(11, s / 3600); t[13] = 0x3A; two(14, s / 60 % 60); t[16] = 0x3A; two(17, s % 60)
            var n = 19
            if frac != 0 {
                t[19] = 0x2E
                t[20] = 0x30 + UInt8(truncatingIfNeeded: frac / 100)
                two(21, frac % 100)
                n = 23
            }
            t[n] = 0x5A
            out.append(contentsOf: UnsafeBufferPointer(rebasing: t[0...n]))
        }
    }

    /// The RFC 3339 UTC text of `ms`.
    public static func string(_ ms: Int64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(ms, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
