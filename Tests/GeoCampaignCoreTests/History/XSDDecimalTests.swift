import XCTest
@testable import GeoCampaignCore

/// GPX's `xsd:decimal` numbers (issue 10 item 1: hex floats, nan and infinity were read as numbers).
final class XSDDecimalTests: XCTestCase {
    func testDecimals() {
        let cases: [(String, Double?, UInt)] = [
            ("47", 47, #line), ("-8.5", -8.5, #line), ("+.5", 0.5, #line), ("3.", 3, #line), ("007.25", 7.25, #line),
            ("\t 1.5 \r\n", 1.5, #line), ("0", 0, #line),
            ("0x1p3", nil, #line), ("nan", nil, #line), ("inf", nil, #line), ("infinity", nil, #line), ("1e3", nil, #line),
            ("", nil, #line), (".", nil, #line), ("-", nil, #line), ("1 2", nil, #line), ("1.2.", nil, #line),
            ("\u{A0}1", nil, #line), ("١", nil, #line),
        ]
        for (text, expected, at) in cases {
            XCTAssertEqual(XSDDecimal.parse(text), expected, "\"\(text)\"", line: at)
        }
    }

    func testLongDecimalsStayExactAndCheap() {
        XCTAssertEqual(XSDDecimal.parse("37.24173816852271556854248046875"), 37.24173816852271556854248046875)
        XCTAssertEqual(XSDDecimal.parse("1." + String(repeating: "0", count: 5_000) + "1"), 1)
        XCTAssertEqual(XSDDecimal.parse(String(repeating: "0", count: 5_000) + "12.5"), 12.5)
        XCTAssertEqual(XSDDecimal.parse("-" + String(repeating: "9", count: 5_000)), -.infinity)
    }
}
