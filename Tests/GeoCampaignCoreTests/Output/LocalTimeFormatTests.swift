import XCTest
@testable import GeoCampaignCore

/// Local times for people: the zone's own abbreviation (from the TZif file, not `GMT+1`), seconds
/// only when not zero, and the reading of local times written in test files.
final class LocalTimeFormatTests: XCTestCase {
    func testAbbreviationsSummerAndWinter() throws {
        let z = try XCTUnwrap(LocalTimeFormat(zone: "Europe/Zurich"))
        XCTAssertEqual(z.string(1_355_484_240_000), "2012-12-14 12:24 CET")
        XCTAssertEqual(z.clock(1_355_484_240_000), "12:24 CET")
        XCTAssertEqual(z.string(1_342_260_005_250), "2012-07-14 12:00:05.250 CEST")
        let la = try XCTUnwrap(LocalTimeFormat(zone: "America/Los_Angeles"))
        XCTAssertEqual(la.string(1_794_942_384_000), "2026-11-17 11:06:24 PST")
        XCTAssertEqual(LocalTimeFormat.utc.string(0), "1970-01-01 00:00 UTC")
        XCTAssertEqual(la.day(1_794_942_384_000), "Tue 2026-11-17")
        XCTAssertNil(LocalTimeFormat(zone: "Mars/Olympus"))
    }

    func testReadsLocalTimesDatesAndInstants() throws {
        let z = try XCTUnwrap(LocalTimeFormat(zone: "Europe/Zurich"))
        XCTAssertEqual(z.parse("2012-12-14 12:24"), 1_355_484_240_000)
        XCTAssertEqual(z.parse("2012-12-14T12:24:00"), 1_355_484_240_000)
        XCTAssertEqual(z.parse("2012-12-14T11:24:00Z"), 1_355_484_240_000)
        XCTAssertEqual(z.parse("2012-12-14"), 1_355_439_600_000)
        XCTAssertEqual(z.parse("2012-12-14 12:24:00.5"), 1_355_484_240_500)
        // 02:30 on the spring-forward day does not exist: the instant the clocks jump to (03:00 CEST = 01:00Z).
        XCTAssertEqual(z.parse("2026-03-29 02:30"), 1_774_746_000_000)
        for bad in ["2012-12-14 25:00", "2012-02-30", "tomorrow", "2012-12-14 12"] { XCTAssertNil(z.parse(bad), bad) }
    }

    func testZoneOfACampaignSet() throws {
        let la = Campaign(id: "a", active: ActiveWindow(fromMs: nil, untilMs: nil, timezone: "America/Los_Angeles"),
                          regions: [], rules: [], offers: [])
        let none = Campaign(id: "b", regions: [], rules: [], offers: [])
        XCTAssertEqual(LocalTimeFormat.forSet(CampaignSet(campaigns: [la, none])).zone, "America/Los_Angeles")
        XCTAssertEqual(LocalTimeFormat.perCampaign(CampaignSet(campaigns: [la, none])).map(\.zone), ["America/Los_Angeles", "America/Los_Angeles"])
        XCTAssertEqual(LocalTimeFormat.forSet(CampaignSet(campaigns: [none])).zone, "UTC")
        let zurich = try XCTUnwrap(LocalTimeFormat(zone: "Europe/Zurich"))
        XCTAssertEqual(LocalTimeFormat.forSet(CampaignSet(campaigns: [la]), override: zurich).zone, "Europe/Zurich")
    }
}
