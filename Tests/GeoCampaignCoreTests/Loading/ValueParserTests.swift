import XCTest
@testable import GeoCampaignCore

final class LoadingValueParserTests: XCTestCase {
    func testDurations() {
        let good: [(String, Int64)] = [("0s", 0), ("30s", 30_000), ("1m", 60_000), ("1h30m", 5_400_000), ("72h", 259_200_000),
                                       ("1d", 86_400_000), ("1w", 604_800_000), ("1w2d3h4m5s", 788_645_000), ("90m", 5_400_000)]
        for (text, ms) in good {
            XCTAssertEqual(try ValueParser.duration(text), ms, text)
        }
        let bad: [(String, String)] = [
            ("30", "'30' has no unit: write 30s for seconds, 30m for minutes or 30h for hours"),
            ("1.5h", "durations use whole numbers: write 1h30m instead of 1.5h"),
            ("0.5m", "durations use whole numbers: write 30s instead of 0.5m"),
            ("1.25s", "durations use whole numbers, and 1s is the smallest step: write '1.25s' as whole seconds, minutes or hours, e.g. 1h30m for 1.5h"),
            ("1mo", "months have no fixed length: write days or weeks instead, e.g. 30d or 4w"),
            ("2M", "months have no fixed length: write days or weeks instead, e.g. 30d or 4w"),
            ("1y", "years have no fixed length: write days or weeks instead, e.g. 365d or 52w"),
            ("30m1h", "write the units from largest to smallest, each once: 1h30m"),
            ("1h1h", "write the units from largest to smallest, each once: 2h"),
            ("1h 30m", "write durations without spaces: 1h30m"),
            ("500ms", "'500ms' is in milliseconds, which durations do not use: write whole seconds, e.g. 1s"),
            ("-5m", "a duration cannot be negative: write a whole number with a unit s, m, h, d or w, e.g. 30m or 1h30m"),
            ("soon", "'soon' is not a duration: write a whole number with a unit s, m, h, d or w, e.g. 30m or 1h30m"),
            ("h", "'h' is not a duration: write a whole number with a unit s, m, h, d or w, e.g. 30m or 1h30m"),
            ("", "a duration is needed here: write a whole number with a unit s, m, h, d or w, e.g. 30m or 1h30m"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try ValueParser.duration(text), text) { XCTAssertEqual(($0 as? ValueError)?.message, message, text) }
        }
        XCTAssertEqual(ValueParser.format(5_400_000), "1h30m")
        XCTAssertEqual(ValueParser.format(0), "0s")
    }

    func testDistances() {
        let good: [(String, Double)] = [("300m", 300), ("300 m", 300), ("1.5km", 1500), ("200ft", 60.96), ("1mi", 1609.344),
                                        ("120", 120), ("0.25km", 250), ("-5m", -5)]
        for (text, m) in good {
            XCTAssertEqual(try ValueParser.distance(text), m, accuracy: 1e-9, text)
        }
        for text in ["300 meters", "m", "300  m", "3OO m", "1,5km", "300M", ""] {
            XCTAssertThrowsError(try ValueParser.distance(text), text)
        }
    }

    func testCoordinates() {
        XCTAssertEqual(try ValueParser.coordinate("37.703026, -121.759735"), Coordinate(lat: 37.703026, lon: -121.759735))
        XCTAssertEqual(try ValueParser.coordinate("37.703026,-121.759735"), Coordinate(lat: 37.703026, lon: -121.759735))
        XCTAssertThrowsError(try ValueParser.coordinate("37.7 -121.7")) {
            XCTAssertEqual(($0 as? ValueError)?.message, "put a comma between latitude and longitude: \"37.7, -121.7\"")
        }
        for text in ["37.7", "37.7, -121.7, 3", "north, west", "37.7°N, 121.7°W"] {
            XCTAssertThrowsError(try ValueParser.coordinate(text), text)
        }
    }

    func testCaps() {
        XCTAssertEqual(try ValueParser.cap("1 per 7d"), Cap(count: 1, perMs: 604_800_000))
        XCTAssertEqual(try ValueParser.cap("2 per 24h"), Cap(count: 2, perMs: 86_400_000))
        XCTAssertEqual(try ValueParser.cap("3"), Cap(count: 3))
        for text in ["0", "-1 per 1d", "1 per", "1 per 0s", "one per day", "1/7d", "1 per 7", "1.5 per 1d"] {
            XCTAssertThrowsError(try ValueParser.cap(text), text)
        }
    }

    func testPercentHoursDaysBooleans() throws {
        XCTAssertEqual(try ValueParser.percent("10%"), 10)
        XCTAssertEqual(try ValueParser.percent("2.5%"), 2.5)
        XCTAssertThrowsError(try ValueParser.percent("10"))
        XCTAssertThrowsError(try ValueParser.percent("ten%"))
        XCTAssertTrue(try ValueParser.hours("11:30-14:00") == (690, 840))
        XCTAssertTrue(try ValueParser.hours("22:00-02:00") == (1320, 120))
        XCTAssertTrue(try ValueParser.hours("00:00-24:00") == (0, 1440))
        XCTAssertTrue(try ValueParser.hours("9:00-17:00") == (540, 1020))
        for text in ["24:00-01:00", "11am-2pm", "11:30", "11:60-12:00", "11:30-24:01", "1130-1400"] {
            XCTAssertThrowsError(try ValueParser.hours(text), text)
        }
        XCTAssertEqual(try ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { try ValueParser.weekday($0) }, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertThrowsError(try ValueParser.weekday("Mon"))
        XCTAssertThrowsError(try ValueParser.weekday("funday"))
        XCTAssertTrue(try ValueParser.bool("true"))
        XCTAssertFalse(try ValueParser.bool("false"))
        for text in ["yes", "no", "on", "True", "1"] { XCTAssertThrowsError(try ValueParser.bool(text), text) }
    }

    func testDatesAndInstants() throws {
        guard case .date(2026, 3, 1) = try ValueParser.dateOrInstant("2026-03-01") else { return XCTFail("date") }
        let cases: [(String, String)] = [
            ("2026-03-09T18:00:00Z", "2026-03-09T18:00:00Z"),
            ("2026-03-09t18:00:00z", "2026-03-09T18:00:00Z"),
            ("2026-03-09T10:00:00-08:00", "2026-03-09T18:00:00Z"),
            ("2026-03-09T18:00:00.1234Z", "2026-03-09T18:00:00.123Z"),
            ("2026-03-09T18:00:00.0005Z", "2026-03-09T18:00:00.001Z"),
        ]
        for (text, utc) in cases {
            guard case .instant(let ms) = try ValueParser.dateOrInstant(text) else { return XCTFail(text) }
            XCTAssertEqual(Timestamp.string(ms), utc, text)
        }
        for text in ["2026-02-29", "2026-13-01", "2026-03-09T18:00:00", "March 1", "2026/03/01", "2026-03-09T25:00:00Z"] {
            XCTAssertThrowsError(try ValueParser.dateOrInstant(text), text)
        }
    }

    func testSuggestions() {
        XCTAssertEqual(EditDistance.suggestion(for: "withn", among: ["within", "min_dwell"]), "within")
        XCTAssertEqual(EditDistance.suggestion(for: "longitude", among: ["lat", "lon"]), "lon")
        XCTAssertEqual(EditDistance.suggestion(for: "Radius", among: ["center", "radius"]), "radius")
        XCTAssertNil(EditDistance.suggestion(for: "colour", among: ["id", "name", "tags"]))
    }
}
