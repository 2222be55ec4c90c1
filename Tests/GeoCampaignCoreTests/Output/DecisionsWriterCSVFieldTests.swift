import XCTest
@testable import GeoCampaignCore

/// CSV fields: RFC 4180 quoting, and no field a spreadsheet would run as a formula (issue 10 item 19).
final class DecisionsWriterCSVFieldTests: XCTestCase {
    func testFields() {
        let cases: [(String, String)] = [
            ("plain", "plain"),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
            ("+1+2", "\"'+1+2\""),
            ("-2+3", "\"'-2+3\""),
            ("@SUM(A1)", "\"'@SUM(A1)\""),
            ("\tcmd", "\"'\tcmd\""),
            ("\rcmd", "\"'\rcmd\""),
            ("-17", "-17"),          // an integer user id is a number, not a formula
            ("-", "\"'-\""),
            ("a=b", "a=b"),          // only a leading sign matters
            ("", ""),
        ]
        for (field, written) in cases {
            XCTAssertEqual(DecisionsWriter.csvField(field), written, field)
        }
    }
}
