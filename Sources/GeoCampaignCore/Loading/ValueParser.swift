import Foundation

/// Reads scalar text as the type a key expects (formats.md 1.2-1.5). Every failure carries a
/// message that says what to write instead.
enum ValueParser {
    private static let durationUnits: [(Character, Int64)] = [("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000)]

    /// The longest duration: the span of the instants a campaign can name, 0001-01-01T00:00:00Z
    /// to 9999-12-31T23:59:59Z (3652058d23h59m59s).
    static let maxDurationMs: Int64 = 315_537_897_599_000

    /// Unit words written out (`day`, `hours`, `min`, `hrs`) and the unit letter they mean.
    private static let unitWords: [String: Character] = {
        var words: [String: Character] = [:]
        for w in ["s", "sec", "secs", "second", "seconds"] { words[w] = "s" }
        for w in ["m", "min", "mins", "minute", "minutes"] { words[w] = "m" }
        for w in ["h", "hr", "hrs", "hour", "hours"] { words[w] = "h" }
        for w in ["d", "day", "days"] { words[w] = "d" }
        for w in ["w", "wk", "wks", "week", "weeks"] { words[w] = "w" }
        return words
    }()

    /// A Prometheus-style duration (`30s`, `1h30m`, `0s`) in milliseconds, at most
    /// `maxDurationMs`.
    static func duration(_ text: String) throws(ValueError) -> Int64 {
        let s = text
        let example = "write a whole number with a unit s, m, h, d or w, e.g. 30m or 1h30m"
        if s.isEmpty { throw ValueError("a duration is needed here: \(example)") }
        if s.hasPrefix("-") { throw ValueError("a duration cannot be negative: \(example)") }
        if s.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw ValueError("'\(s)' has no unit: write \(s)s for seconds, \(s)m for minutes or \(s)h for hours")
        }
        if s.contains(where: { $0 == " " || $0 == "\t" }) {
            let joined = s.filter { $0 != " " && $0 != "\t" }
            if let ms = strictDuration(joined) {
                try checkLength(ms, s)
                throw ValueError("write durations without spaces: \(format(ms))", meantMs: ms)
            }
        }
        if let ms = strictDuration(s) {
            try checkLength(ms, s)
            return ms
        }
        let lower = s.lowercased()
        if lower.hasSuffix("ms") {
            throw ValueError("'\(s)' is in milliseconds, which durations do not use: write whole seconds, e.g. 1s")
        }
        if let ms = writtenOut(s) {
            try checkLength(ms, s)
            throw ValueError("write \(format(ms)) instead of '\(s)': durations use the units s, m, h, d and w", meantMs: ms)
        }
        if lower.hasSuffix("y") || lower.contains("year") {
            throw ValueError("years have no fixed length: write days or weeks instead, e.g. 365d or 52w")
        }
        if lower.hasSuffix("mo") || lower.contains("month") || s.hasSuffix("M") {
            throw ValueError("months have no fixed length: write days or weeks instead, e.g. 30d or 4w")
        }
        if s.contains(".") || s.contains(",") {
            let unitChar = s.last ?? "s"
            let number = String(s.dropLast()).replacingOccurrences(of: ",", with: ".")
            if let unit = durationUnits.first(where: { $0.0 == unitChar }), let v = decimal(number), v >= 0 {
                let ms = v * Double(unit.1)
                if ms > Double(maxDurationMs) { try checkLength(Int64.max, s) }
                if ms == ms.rounded(), ms.truncatingRemainder(dividingBy: 1000) == 0, ms < 1e15 {
                    try checkLength(Int64(ms), s)
                    throw ValueError("durations use whole numbers: write \(format(Int64(ms))) instead of \(s)", meantMs: Int64(ms))
                }
            }
            throw ValueError("durations use whole numbers, and 1s is the smallest step: write '\(s)' as whole seconds, minutes or hours, e.g. 1h30m for 1.5h")
        }
        // Valid units in the wrong order or repeated.
        var total: Int64 = 0
        var digits = ""
        var allUnitsKnown = true
        for ch in s {
            if ch.isASCII && ch.isNumber { digits.append(ch); continue }
            guard let unit = durationUnits.first(where: { $0.0 == ch }), let n = Int64(digits), digits.count <= 12 else {
                allUnitsKnown = false
                break
            }
            total = saturatingSum(total, saturatingProduct(n, unit.1))
            digits = ""
        }
        if allUnitsKnown && digits.isEmpty {
            try checkLength(total, s)
            throw ValueError("write the units from largest to smallest, each once: \(format(total))", meantMs: total)
        }
        throw ValueError("'\(s)' is not a duration: \(example)")
    }

    /// Throws when `ms` (read from `s`) is longer than `maxDurationMs`.
    private static func checkLength(_ ms: Int64, _ s: String) throws(ValueError) {
        guard ms > maxDurationMs else { return }
        throw ValueError("'\(shown(s))' is longer than any campaign can last: a duration is at most 3652058d (the years 0001 to 9999)")
    }

    /// `s` as quoted in a message: at most 40 characters, the rest elided.
    static func shown(_ s: String) -> String {
        s.count <= 40 ? s : String(s.prefix(37)) + "..."
    }

    private static func saturatingProduct(_ a: Int64, _ b: Int64) -> Int64 {
        let (v, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int64.max : v
    }

    private static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (v, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int64.max : v
    }

    /// A duration with its units written out or in capitals (`1 day`, `72 hours`, `10min`,
    /// `24hrs`, `72H`, `1 hour 30 minutes`, `week`), each unit once, largest first; nil for
    /// anything else. A lone unit word (`day`, not `d`) means one of it.
    private static func writtenOut(_ s: String) -> Int64? {
        guard s.count <= 64 else { return nil }
        var tokens: [(number: Int64?, unit: Character)] = []
        var digits = ""
        var word = ""
        func endWord() -> Bool {
            guard !word.isEmpty else { return true }
            // A capital M is months (handled by the caller), not minutes.
            guard word != "M", let unit = unitWords[word.lowercased()] else { return false }
            if digits.isEmpty {
                guard tokens.isEmpty, word.count >= 3 else { return false }
                tokens.append((nil, unit))
            } else {
                guard digits.count <= 12, let n = Int64(digits) else { return false }
                tokens.append((n, unit))
            }
            digits = ""
            word = ""
            return true
        }
        for ch in s {
            if ch.isASCII && ch.isNumber {
                guard word.isEmpty || endWord() else { return nil }
                digits.append(ch)
            } else if ch.isASCII && ch.isLetter {
                word.append(ch)
            } else if ch == " " || ch == "\t" {
                guard endWord() else { return nil }
            } else {
                return nil
            }
        }
        guard endWord(), digits.isEmpty, !tokens.isEmpty else { return nil }
        if tokens.count == 1, tokens[0].number == nil {
            return durationUnits.first { $0.0 == tokens[0].unit }?.1
        }
        var total: Int64 = 0
        var last = -1
        for t in tokens {
            guard let n = t.number, let k = durationUnits.firstIndex(where: { $0.0 == t.unit }), k > last else { return nil }
            total = saturatingSum(total, saturatingProduct(n, durationUnits[k].1))
            last = k
        }
        return total
    }

    /// The canonical text of a duration: `1h30m`, `0s`.
    static func format(_ ms: Int64) -> String {
        if ms == 0 { return "0s" }
        var rest = ms
        var out = ""
        for (c, unit) in durationUnits where rest >= unit {
            out += "\(rest / unit)\(c)"
            rest %= unit
        }
        if rest > 0 { out += "\(rest)ms" }
        return out
    }

    /// A duration in the strict form (units largest first, each once), in ms; saturates at
    /// `Int64.max` for the caller to report as too long; nil when `s` is not in that form.
    private static func strictDuration(_ s: String) -> Int64? {
        guard !s.isEmpty else { return nil }
        var total: Int64 = 0
        var digits = ""
        var lastUnit = -1
        for ch in s {
            if ch.isASCII && ch.isNumber {
                digits.append(ch)
                continue
            }
            guard let idx = durationUnits.firstIndex(where: { $0.0 == ch }), idx > lastUnit,
                  !digits.isEmpty, digits.count <= 12, let n = Int64(digits) else { return nil }
            total = saturatingSum(total, saturatingProduct(n, durationUnits[idx].1))
            lastUnit = idx
            digits = ""
        }
        guard digits.isEmpty, lastUnit >= 0 else { return nil }
        return total
    }

    /// A distance in meters: `300m`, `1.5km`, `300 ft`, `0.2mi`, or a bare number of meters.
    static func distance(_ s: String) throws(ValueError) -> Double {
        let units: [(String, Double)] = [("km", 1000), ("mi", 1609.344), ("ft", 0.3048), ("m", 1)]
        var number = s
        var factor = 1.0
        for (u, f) in units where s.hasSuffix(u) {
            number = String(s.dropLast(u.count))
            if number.hasSuffix(" ") { number = String(number.dropLast()) }
            factor = f
            break
        }
        guard let v = decimal(number) else {
            throw ValueError("'\(s)' is not a distance: write a number with a unit m, km, ft or mi, e.g. 300m or 1.5km")
        }
        return v * factor
    }

    /// A strict decimal number (`12`, `-3.5`, `1e3`); nil for anything else.
    static func decimal(_ s: String) -> Double? {
        var sawDigit = false
        var i = s.startIndex
        if i < s.endIndex, s[i] == "+" || s[i] == "-" { i = s.index(after: i) }
        var sawDot = false, sawExp = false
        while i < s.endIndex {
            let c = s[i]
            if c.isASCII && c.isNumber {
                sawDigit = true
            } else if c == "." && !sawDot && !sawExp {
                sawDot = true
            } else if (c == "e" || c == "E") && sawDigit && !sawExp {
                sawExp = true
                let n = s.index(after: i)
                if n < s.endIndex, s[n] == "+" || s[n] == "-" { i = n }
                sawDigit = false
            } else {
                return nil
            }
            i = s.index(after: i)
        }
        guard sawDigit, let v = Double(s), v.isFinite else { return nil }
        return v
    }

    /// A whole number.
    static func integer(_ s: String) -> Int? {
        var body = Substring(s)
        if body.hasPrefix("+") { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "-" }) else { return nil }
        return Int(body)
    }

    /// `true` or `false`.
    static func bool(_ s: String) throws(ValueError) -> Bool {
        switch s {
        case "true": return true
        case "false": return false
        default: throw ValueError("'\(s)' is not true or false: write true or false")
        }
    }

    /// `"lat, lon"` (space optional) as a coordinate; ranges are checked by the caller.
    static func coordinate(_ s: String) throws(ValueError) -> Coordinate {
        let hint = "write \"lat, lon\" in quotes, e.g. \"37.703026, -121.759735\", or { lat: 37.703026, lon: -121.759735 }"
        let parts = s.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2 {
            let a = parts[0].trimmingCharacters(in: .whitespaces), b = parts[1].trimmingCharacters(in: .whitespaces)
            if let lat = decimal(a), let lon = decimal(b) { return Coordinate(lat: lat, lon: lon) }
        }
        let words = s.split(separator: " ")
        if parts.count == 1, words.count == 2, let a = decimal(String(words[0])), let b = decimal(String(words[1])) {
            throw ValueError("put a comma between latitude and longitude: \"\(fmt(a)), \(fmt(b))\"")
        }
        throw ValueError("'\(s)' is not a coordinate: \(hint)")
    }

    /// Shortest text of a number as the user would write it.
    static func fmt(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    /// `"N per DURATION"` or `"N"`.
    static func cap(_ s: String) throws(ValueError) -> Cap {
        let hint = "write 'N per DURATION', e.g. '1 per 7d', or just 'N' for at most N ever"
        let words = s.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { throw ValueError("a cap is needed here: \(hint)") }
        guard let n = integer(first) else {
            throw ValueError("'\(s)' is not a cap: \(hint)")
        }
        guard n >= 1 else { throw ValueError("the count must be at least 1 (a cap of \(n) never lets anything through): \(hint)") }
        if words.count == 1 { return Cap(count: n) }
        guard words.count >= 3, words[1] == "per" else { throw ValueError("'\(s)' is not a cap: \(hint)") }
        let period = words[2...].joined(separator: " ")
        let ms: Int64
        do {
            ms = try duration(period)
        } catch {
            if let meant = error.meantMs {
                throw ValueError("write '\(n) per \(format(meant))' instead of '\(s)': durations use the units s, m, h, d and w, without spaces")
            }
            throw error
        }
        guard ms > 0 else { throw ValueError("the period of a cap must be longer than 0s, e.g. '1 per 24h'") }
        return Cap(count: n, perMs: ms)
    }

    /// `"N%"` as a number of percent.
    static func percent(_ s: String) throws(ValueError) -> Double {
        guard s.hasSuffix("%"), let v = decimal(String(s.dropLast()).trimmingCharacters(in: .whitespaces)) else {
            if let v = decimal(s) {
                if v > 0 && v <= 1 {
                    let percent = (v * 100 * 1e6).rounded() / 1e6
                    throw ValueError("write the holdout as a percentage: \(fmt(percent))% if \(s) is the share of users held out, or \(fmt(v))% if you meant \(fmt(v)) percent")
                }
                throw ValueError("write the holdout as a percentage: \(fmt(v))%")
            }
            throw ValueError("'\(s)' is not a percentage: write e.g. 10% or 2.5%")
        }
        return v
    }

    /// `"HH:MM-HH:MM"` as (start, end) minutes after midnight; the end may be 24:00.
    static func hours(_ s: String) throws(ValueError) -> (Int, Int) {
        let hint = "write hours as \"HH:MM-HH:MM\" on a 24-hour clock, e.g. \"11:30-14:00\" (\"22:00-02:00\" runs past midnight)"
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let a = clock(parts[0].trimmingCharacters(in: .whitespaces)),
              let b = clock(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw ValueError("'\(s)' is not a time range: \(hint)")
        }
        guard a < 1440 else { throw ValueError("the start time must be before 24:00: \(hint)") }
        return (a, b)
    }

    private static func clock(_ s: String) -> Int? {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, (1...2).contains(p[0].count), p[1].count == 2,
              p[0].allSatisfy({ $0.isASCII && $0.isNumber }), p[1].allSatisfy({ $0.isASCII && $0.isNumber }),
              let h = Int(p[0]), let m = Int(p[1]), m < 60 else { return nil }
        let v = h * 60 + m
        return v <= 1440 ? v : nil
    }

    /// The ISO weekday number (1 = Monday) of `mon`...`sun`.
    static func weekday(_ s: String) throws(ValueError) -> Int {
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        if let i = days.firstIndex(of: s) { return i + 1 }
        let lower = s.lowercased()
        if let i = days.firstIndex(where: { lower.hasPrefix($0) }) {
            throw ValueError("write days as mon, tue, wed, thu, fri, sat, sun: '\(days[i])' instead of '\(s)'")
        }
        throw ValueError("'\(s)' is not a day: write mon, tue, wed, thu, fri, sat or sun")
    }

    /// The ISO weekday numbers of one item of `days`: a day (`mon`) or a range of days
    /// (`mon-fri`; `fri-mon` wraps over the weekend: fri, sat, sun, mon). Ranges are an extension
    /// of the contract, documented in docs/campaign-format.md.
    static func weekdays(_ s: String) throws(ValueError) -> [Int] {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return [try weekday(s)] }
        guard !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ValueError("'\(s)' is not a range of days: write the first and last day, e.g. mon-fri")
        }
        let first = try weekday(parts[0]), last = try weekday(parts[1])
        if first == last {
            throw ValueError("'\(s)' starts and ends on the same day: write \(parts[0]) for that day alone, or leave days out for every day")
        }
        var out: [Int] = []
        var d = first
        while true {
            out.append(d)
            if d == last { break }
            d = d % 7 + 1
        }
        return out
    }

    /// A calendar date `YYYY-MM-DD` or an RFC 3339 instant.
    enum DateOrInstant {
        case date(year: Int64, month: Int64, day: Int64)
        case instant(ms: Int64)
    }

    /// Reads `2026-03-01` or `2026-03-01T08:00:00Z` / `...+02:00`.
    static func dateOrInstant(_ s: String) throws(ValueError) -> DateOrInstant {
        let hint = "write a date like 2026-03-01 (midnight in the campaign's timezone) or an instant like 2026-03-01T08:00:00Z"
        let chars = Array(s.utf8)
        func num(_ from: Int, _ len: Int) -> Int64? {
            guard from + len <= chars.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + len) {
                let c = chars[i]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int64(c - 0x30)
            }
            return v
        }
        guard chars.count >= 10, let y = num(0, 4), chars[4] == 0x2D, let mo = num(5, 2), chars[7] == 0x2D, let d = num(8, 2) else {
            throw ValueError("'\(s)' is not a date: \(hint)")
        }
        guard (1...12).contains(mo), d >= 1, d <= daysIn(year: y, month: mo), y >= 1 else {
            throw ValueError("'\(s)' is not a real calendar date: \(hint)")
        }
        let days = Timestamp.days(year: y, month: mo, day: d)
        if chars.count == 10 { return .date(year: y, month: mo, day: d) }
        guard chars.count >= 20, chars[10] == 0x54 || chars[10] == 0x74 || chars[10] == 0x20,
              let h = num(11, 2), chars[13] == 0x3A, let mi = num(14, 2), chars[16] == 0x3A, let sec = num(17, 2),
              h < 24, mi < 60, sec < 61 else {
            throw ValueError("'\(s)' is not a date or instant: \(hint)")
        }
        if sec == 60 {
            throw ValueError("'\(s)' is a leap second, which instants here do not use (as in histories): write :59 or the next minute's :00")
        }
        var i = 19
        var fracMs: Int64 = 0
        if i < chars.count, chars[i] == 0x2E {
            i += 1
            var digits: [Int64] = []
            while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                digits.append(Int64(chars[i] - 0x30))
                i += 1
            }
            guard !digits.isEmpty else { throw ValueError("'\(s)' is not an instant: \(hint)") }
            let padded = digits + [0, 0, 0, 0]
            fracMs = padded[0] * 100 + padded[1] * 10 + padded[2]
            if padded[3] >= 5 { fracMs += 1 }
        }
        var offsetMin: Int64 = 0
        if i < chars.count, chars[i] == 0x5A || chars[i] == 0x7A {
            i += 1
        } else if i + 6 == chars.count, chars[i] == 0x2B || chars[i] == 0x2D,
                  let oh = num(i + 1, 2), chars[i + 3] == 0x3A, let om = num(i + 4, 2), oh < 24, om < 60 {
            offsetMin = (oh * 60 + om) * (chars[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            throw ValueError("'\(s)' has no time zone offset: end it with Z for UTC or with an offset like -08:00; \(hint)")
        }
        guard i == chars.count else { throw ValueError("'\(s)' is not an instant: \(hint)") }
        let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offsetMin * 60
        return .instant(ms: secs * 1000 + fracMs)
    }

    private static func daysIn(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
