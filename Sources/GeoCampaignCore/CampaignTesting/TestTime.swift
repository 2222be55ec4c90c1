import Foundation

/// A time as written in a test file, read once the zone is known (local times are in the
/// campaigns' zone).
struct TestTime: Sendable {
    var text: String
    var mark: SourceMark

    /// The span the text denotes: a date is its whole local day, `HH:MM` its minute, `HH:MM:SS`
    /// its second, a fraction its millisecond; nil when the text is not a time.
    func span(_ zone: LocalTimeFormat) -> Interval? {
        guard let start = zone.parse(text) else { return nil }
        let t = text.trimmingCharacters(in: .whitespaces)
        let clock = t.count > 10 ? String(t.dropFirst(11)) : ""
        let width: Int64
        if clock.isEmpty {
            guard let next = zone.parse(Self.nextDay(t)) else { return Interval(start, start + 86_400_000) }
            return Interval(start, next)
        } else if clock.contains(".") {
            width = 1
        } else if clock.prefix(8).filter({ $0 == ":" }).count >= 2 {
            width = 1000
        } else {
            width = 60_000
        }
        return Interval(start, start + width)
    }

    /// `2026-11-18` for `2026-11-17`.
    static func nextDay(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3 else { return date }
        let (y, m, d) = Timestamp.civil(fromDays: Timestamp.days(year: parts[0], month: parts[1], day: parts[2]) + 1)
        func pad(_ v: Int64, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }
}
