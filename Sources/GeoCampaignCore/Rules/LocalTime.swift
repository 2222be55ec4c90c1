import Foundation

/// Conversions between local wall-clock time in an IANA zone and instants (semantics 3.5).
///
/// A local time that does not exist (clocks jump forward) maps to the instant the clocks jump
/// to; one that occurs twice maps to its first occurrence. Foundation's `Calendar.date(from:)` is
/// not used: it moves a missing 02:30 to 03:30 where the spec wants 03:00.
struct LocalTime: Sendable {
    let zone: TimeZone

    /// The zone's offset from UTC in seconds at Unix second `s`.
    func offset(atSecond s: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))))
    }

    /// The local day (days since 1970-01-01 on the local calendar) holding instant `ms`.
    func localDay(ofMs ms: Int64) -> Int64 {
        let s = floorDiv(ms, 1000)
        return floorDiv(s + offset(atSecond: s), 86_400)
    }

    /// The instant (Unix seconds) of local wall-clock time `local` (seconds since local 1970-01-01 00:00).
    /// - Complexity: O(1) zone look-ups, O(log gap) more inside a skipped hour.
    func instant(ofLocalSecond local: Int64) -> Int64 {
        let before = offset(atSecond: local - 86_400)
        let after = offset(atSecond: local + 86_400)
        if before == after, offset(atSecond: local - before) == before { return local - before }
        var probes = [before, after, offset(atSecond: local)]
        probes.append(offset(atSecond: local - before))
        probes.append(offset(atSecond: local - after))
        var candidates: [Int64] = []
        for o in Set(probes) where offset(atSecond: local - o) == o { candidates.append(local - o) }
        if let first = candidates.min() { return first }
        // A skipped local time: the transition lies in (local - maxOffset, local - minOffset].
        guard let lowOffset = probes.min(), let highOffset = probes.max() else { return local }
        var lo = local - highOffset, hi = local - lowOffset
        let startOffset = offset(atSecond: lo)
        if offset(atSecond: hi) == startOffset { return hi }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if offset(atSecond: mid) == startOffset { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// ISO weekday (1 = Monday ... 7 = Sunday) of a local day number.
    static func isoWeekday(ofDay day: Int64) -> Int {
        Int(((day % 7) + 7 + 3) % 7) + 1
    }
}

/// Floor division for a positive divisor.
@inlinable func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && a < 0) ? q - 1 : q
}
