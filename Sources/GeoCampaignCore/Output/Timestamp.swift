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
        func two(_ v: Int64) { out.append(0x30 + UInt8(v / 10)); out.append(0x30 + UInt8(v % 10)) }
        let yy = max(0, min(9999, y))
        out.append(0x30 + UInt8(yy / 1000)); out.append(0x30 + UInt8(yy / 100 % 10))
        two(yy % 100)
        out.append(0x2D); two(m); out.append(0x2D); two(d)
        out.append(0x54)
        let s = rem / 1000, frac = rem % 1000
        two(s / 3600); out.append(0x3A); two(s / 60 % 60); out.append(0x3A); two(s % 60)
        if frac != 0 {
            out.append(0x2E)
            out.append(0x30 + UInt8(frac / 100)); out.append(0x30 + UInt8(frac / 10 % 10)); out.append(0x30 + UInt8(frac % 10))
        }
        out.append(0x5A)
    }

    /// The RFC 3339 UTC text of `ms`.
    public static func string(_ ms: Int64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(ms, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
