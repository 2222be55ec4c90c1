import XCTest
@testable import GeoCampaignCore

/// Zone abbreviations from the system's TZif files.
final class ZoneAbbreviationsTests: XCTestCase {
    func testReadsTheTypesOfAZone() {
        let z = ZoneAbbreviations(identifier: "Europe/Zurich")
        XCTAssertEqual(z.abbreviation(offsetS: 3600, isDST: false), "CET")
        XCTAssertEqual(z.abbreviation(offsetS: 7200, isDST: true), "CEST")
        XCTAssertNil(z.abbreviation(offsetS: 12_345, isDST: false))
    }

    func testMissingOrHostileNamesGiveNoTypes() {
        XCTAssertTrue(ZoneAbbreviations(identifier: "Europe/Zurich", directory: "/nonexistent").types.isEmpty)
        XCTAssertTrue(ZoneAbbreviations(identifier: "../../etc/passwd").types.isEmpty)
        XCTAssertTrue(ZoneAbbreviations.parse(Array("TZif2 but not really".utf8)).isEmpty)
        XCTAssertTrue(ZoneAbbreviations.parse([]).isEmpty)
    }
}
