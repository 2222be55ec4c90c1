import Foundation
import XCTest
@testable import GeoCampaignCore

final class DuringConditionTests: XCTestCase {
    let regions = [region("any")]
    let weekdays: Set<Int> = [1, 2, 3, 4, 5]

    func during(_ days: Set<Int> = Set(1...7), _ start: Int, _ end: Int, _ zone: String = "UTC") -> Condition {
        .during(DuringCondition(days: days, startMinute: start, endMinute: end, timezone: zone))
    }

    func intervals(_ c: Condition, _ t0: Int64, _ tEnd: Int64) -> [Interval] {
        ruleIntervals(c, regions: regions, visits: [], t0: t0, tEnd: tEnd)
    }

    func testUTCWindows() {
        // Mon 2026-11-23 .. Sun 2026-11-29, weekday lunch.
        let lunch = intervals(during(weekdays, 11 * 60 + 30, 14 * 60), utc(2026, 11, 23), utc(2026, 11, 30))
        XCTAssertEqual(lunch, (23...27).map { Interval(utc(2026, 11, $0, 11, 30), utc(2026, 11, $0, 14)) })
    }

    func testWindowPastMidnightBelongsToTheStartDay() {
        // Wednesday only, 22:00-02:00: Wed 22:00 -> Thu 02:00; nothing starts Thursday.
        let owl = intervals(during([3], 22 * 60, 2 * 60), utc(2026, 11, 23), utc(2026, 11, 30))
        XCTAssertEqual(owl, [Interval(utc(2026, 11, 25, 22), utc(2026, 11, 26, 2))])
        // A Tuesday window still running when the timeline starts on Wednesday 01:00 triggers at T0.
        let t0 = utc(2026, 11, 25, 1)
        XCTAssertEqual(triggerTimes(during([2], 22 * 60, 2 * 60), regions: regions, visits: [], t0: t0, tEnd: utc(2026, 11, 26)), [t0])
        // An end equal to the start is a whole day from the start.
        XCTAssertEqual(intervals(during([1], 5 * 60, 5 * 60), utc(2026, 11, 23), utc(2026, 11, 30)),
                       [Interval(utc(2026, 11, 23, 5), utc(2026, 11, 24, 5))])
    }

    func testEndAt2400() {
        let evening = intervals(during([1, 2], 18 * 60, 1440), utc(2026, 11, 23), utc(2026, 11, 30))
        XCTAssertEqual(evening, [Interval(utc(2026, 11, 23, 18), utc(2026, 11, 24, 0)),
                                 Interval(utc(2026, 11, 24, 18), utc(2026, 11, 25, 0))])
        // Every day all day: one interval, one trigger at T0.
        XCTAssertEqual(intervals(during(Set(1...7), 0, 1440), utc(2026, 11, 23, 7), utc(2026, 11, 30)),
                       [Interval(utc(2026, 11, 23, 7), utc(2026, 11, 30) + 1)])
    }

    func testSpringForwardInLosAngeles() {
        let la = "America/Los_Angeles"
        let sunday: Set<Int> = [7]
        let (t0, tEnd) = (utc(2026, 3, 7), utc(2026, 3, 10))
        // 02:30 does not exist on 2026-03-08: it is the instant the clocks jump to, 03:00 PDT = 10:00Z.
        XCTAssertEqual(intervals(during(sunday, 150, 210, la), t0, tEnd), [Interval(utc(2026, 3, 8, 10), utc(2026, 3, 8, 10, 30))])
        XCTAssertEqual(intervals(during(sunday, 60, 150, la), t0, tEnd), [Interval(utc(2026, 3, 8, 9), utc(2026, 3, 8, 10))])
        // A window entirely inside the skipped hour is empty.
        XCTAssertEqual(intervals(during(sunday, 120, 170, la), t0, tEnd), [])
        // The whole day is 23 hours.
        XCTAssertEqual(intervals(during(sunday, 0, 1440, la), t0, tEnd), [Interval(utc(2026, 3, 8, 8), utc(2026, 3, 9, 7))])
        // Saturday 22:00 PST to Sunday 02:30 (missing) = 03:00 PDT.
        XCTAssertEqual(intervals(during([6], 22 * 60, 150, la), t0, tEnd), [Interval(utc(2026, 3, 8, 6), utc(2026, 3, 8, 10))])
    }

    func testFallBackInLosAngeles() {
        let la = "America/Los_Angeles"
        let sunday: Set<Int> = [7]
        let (t0, tEnd) = (utc(2026, 10, 31), utc(2026, 11, 3))
        // 01:30 happens twice on 2026-11-01: the first (PDT, 08:30Z) counts; 02:00 PST = 10:00Z.
        XCTAssertEqual(intervals(during(sunday, 90, 120, la), t0, tEnd), [Interval(utc(2026, 11, 1, 8, 30), utc(2026, 11, 1, 10))])
        XCTAssertEqual(intervals(during(sunday, 60, 90, la), t0, tEnd), [Interval(utc(2026, 11, 1, 8), utc(2026, 11, 1, 8, 30))])
        // The whole day is 25 hours.
        XCTAssertEqual(intervals(during(sunday, 0, 1440, la), t0, tEnd), [Interval(utc(2026, 11, 1, 7), utc(2026, 11, 2, 8))])
    }

    func testLocalTimeConversion() throws {
        let clock = LocalTime(zone: try XCTUnwrap(TimeZone(identifier: "America/Los_Angeles")))
        func local(_ y: Int64, _ mo: Int64, _ d: Int64, _ hh: Int64, _ mm: Int64) -> Int64 {
            (Timestamp.days(year: y, month: mo, day: d) * 86_400 + hh * 3600 + mm * 60)
        }
        let cases: [(Int64, Int64)] = [
            (local(2026, 3, 8, 1, 59), utc(2026, 3, 8, 9, 59) / 1000),
            (local(2026, 3, 8, 2, 0), utc(2026, 3, 8, 10) / 1000),
            (local(2026, 3, 8, 2, 30), utc(2026, 3, 8, 10) / 1000),
            (local(2026, 3, 8, 3, 0), utc(2026, 3, 8, 10) / 1000),
            (local(2026, 11, 1, 0, 59), utc(2026, 11, 1, 7, 59) / 1000),
            (local(2026, 11, 1, 1, 30), utc(2026, 11, 1, 8, 30) / 1000),
            (local(2026, 11, 1, 2, 0), utc(2026, 11, 1, 10) / 1000),
            (local(2026, 7, 1, 12, 0), utc(2026, 7, 1, 19) / 1000),
        ]
        for (localSecond, expected) in cases {
            XCTAssertEqual(clock.instant(ofLocalSecond: localSecond), expected)
        }
        // Other zones: a skipped local time is the instant of the jump, a repeated one its first occurrence.
        let others: [(String, (Int64, Int64, Int64, Int64, Int64), Int64)] = [
            ("Europe/Berlin", (2026, 3, 29, 2, 30), utc(2026, 3, 29, 1)),
            ("Europe/Berlin", (2026, 10, 25, 2, 30), utc(2026, 10, 25, 0, 30)),
            ("Asia/Kolkata", (2026, 6, 1, 9, 15), utc(2026, 6, 1, 3, 45)),
            ("Australia/Lord_Howe", (2026, 10, 4, 2, 15), utc(2026, 10, 3, 15, 30)),
            ("Pacific/Apia", (2011, 12, 30, 12, 0), utc(2011, 12, 30, 10)),
        ]
        for (zone, l, expected) in others {
            let c = LocalTime(zone: try XCTUnwrap(TimeZone(identifier: zone)))
            XCTAssertEqual(c.instant(ofLocalSecond: local(l.0, l.1, l.2, l.3, l.4)), expected / 1000, zone)
        }
        XCTAssertEqual(LocalTime.isoWeekday(ofDay: Timestamp.days(year: 2026, month: 11, day: 23)), 1)
        XCTAssertEqual(LocalTime.isoWeekday(ofDay: Timestamp.days(year: 1969, month: 12, day: 28)), 7)
    }
}

/// The windows `during` caches across users equal the windows computed afresh, whatever the
/// order in which users' timelines ask for days (later ranges first, overlapping, far away).
final class DuringWindowCacheTests: XCTestCase {
    func testCachedWindowsEqualFreshOnes() {
        let condition = DuringCondition(days: [1, 3, 5, 6], startMinute: 2 * 60 + 30, endMinute: 60, timezone: "America/Los_Angeles")
        let shared = DuringEvaluator(condition)
        let day: Int64 = 86_400_000
        let base = utc(2026, 3, 1)
        let timelines: [(Int64, Int64)] = [
            (base + 20 * day, base + 40 * day), (base, base + 25 * day), (base - 300 * day, base - 290 * day),
            (base + 35 * day + 7_200_000, base + 36 * day), (base + 100_000 * day, base + 100_003 * day), (base, base + 1),
        ]
        for (t0, tEnd) in timelines {
            let ctx = EvaluationContext(visits: [], domain: IntervalSet.timeline(t0: t0, tEnd: tEnd))
            let fresh = DuringEvaluator(condition).intervals(ctx)
            XCTAssertEqual(shared.intervals(ctx), fresh, "timeline \(t0)-\(tEnd)")
            XCTAssertEqual(shared.intervals(ctx), fresh, "timeline \(t0)-\(tEnd), asked again")
        }
        let spring = EvaluationContext(visits: [], domain: IntervalSet.timeline(t0: base, tEnd: base + 30 * day))
        XCTAssertFalse(shared.intervals(spring).intervals.isEmpty)
    }
}
