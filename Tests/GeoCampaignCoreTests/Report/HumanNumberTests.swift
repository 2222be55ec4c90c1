import XCTest
@testable import GeoCampaignCore

/// Numbers and times as the report prints them for people.
final class ReportHumanNumberTests: XCTestCase {
    func testCountsPercentsPointsAndPValues() {
        let m = HumanNumber.minus
        let cases: [(String, String)] = [
            (HumanNumber.count(0), "0"), (HumanNumber.count(999), "999"), (HumanNumber.count(1234), "1,234"),
            (HumanNumber.count(1_234_567), "1,234,567"), (HumanNumber.count(-1234), m + "1,234"),
            (HumanNumber.percent(0.125), "12.5%"), (HumanNumber.percent(0), "0.0%"), (HumanNumber.percent(1), "100.0%"),
            (HumanNumber.percent(0.4444444), "44.4%"), (HumanNumber.percent(-0.1111, signed: true), m + "11.1%"),
            (HumanNumber.percent(0.5, signed: true), "+50.0%"), (HumanNumber.percent(12.345), "1,234.5%"),
            (HumanNumber.points(0.5), "+50.0 pts"), (HumanNumber.points(-0.0555), m + "5.5 pts"), (HumanNumber.points(0), "0.0 pts"),
            (HumanNumber.points(-0.00001), "0.0 pts"),
            (HumanNumber.decimal(-2.5, digits: 1, signed: true), m + "2.5"), (HumanNumber.decimal(1234.56, digits: 1), "1,234.6"),
            (HumanNumber.pValue(0.3613104), "0.361"), (HumanNumber.pValue(0.0004), "< 0.001"), (HumanNumber.pValue(1), "1.000"),
            (HumanNumber.decimal(.nan), "n/a"),
        ]
        for (got, want) in cases { XCTAssertEqual(got, want) }
    }

    func testTimesGoThroughOneWallClock() {
        // 2026-03-02T16:47:35Z, a Monday.
        let ms: Int64 = 1_772_470_055_000
        XCTAssertEqual(ReportTime.text(ms), "2026-03-02 16:47 UTC")
        XCTAssertEqual(ReportTime.dayLabel(ReportTime.day(ms)), "Mon 2 Mar 2026")
        XCTAssertEqual(ReportTime.shortDay(ReportTime.day(ms)), "2 Mar")
        XCTAssertEqual(ReportTime.date(ReportTime.day(ms)), "2026-03-02")
        XCTAssertEqual(ReportTime.day(ms), ReportTime.day(ms - 16 * 3_600_000 - 47 * 60_000 - 35_000), "midnight is the same day")
        XCTAssertEqual(ReportTime.day(ms - 16 * 3_600_000 - 47 * 60_000 - 35_001), ReportTime.day(ms) - 1, "a ms before is the day before")
        XCTAssertEqual(ReportTime.text(-1), "1969-12-31 23:59 UTC")
        XCTAssertEqual(ReportTime.dayLabel(0), "Thu 1 Jan 1970")
        let durations: [(Int64, String)] = [(45_000, "45 s"), (720_000, "12 min"), (7_500_000, "2 h 5 min"), (7_200_000, "2 h"),
                                            (86_400_000 * 3 + 3_600_000 * 4, "3 d 4 h"), (172_800_000, "2 d"), (-5, "0 s")]
        for (ms, want) in durations { XCTAssertEqual(ReportTime.duration(ms), want) }
    }

    /// With a campaign zone the page's times and days are local, with the zone's abbreviation.
    func testTimesFollowTheZoneOfThePage() throws {
        let zurich = try XCTUnwrap(LocalTimeFormat(zone: "Europe/Zurich"))
        let ms: Int64 = 1_772_470_055_000   // 2026-03-02T16:47:35Z
        let lateUTC: Int64 = 1_772_492_400_000  // 2026-03-02T23:00:00Z, already 3 March in Zurich
        ReportTime.$format.withValue(zurich) {
            XCTAssertEqual(ReportTime.text(ms), "2026-03-02 17:47 CET")
            XCTAssertEqual(ReportTime.date(ReportTime.day(lateUTC)), "2026-03-03")
            XCTAssertEqual(ReportTime.zoneName, "Europe/Zurich")
        }
        // Negative control: outside the render the zone is UTC again.
        XCTAssertEqual(ReportTime.date(ReportTime.day(lateUTC)), "2026-03-02")
        XCTAssertEqual(ReportTime.text(ms), "2026-03-02 16:47 UTC")
    }

    func testHTMLEscaping() {
        XCTAssertEqual(HTMLText.escape("Fish & <Chips> \"Co\" 'n'"), "Fish &amp; &lt;Chips&gt; &quot;Co&quot; &#39;n&#39;")
        XCTAssertEqual(HTMLText.escape("Lorrenzillo’s"), "Lorrenzillo’s")
    }
}
