import XCTest
@testable import GeoCampaignCore

final class JSONTextTests: XCTestCase {
    func testEscapesQuotesBackslashesAndControlCharacters() {
        let cases: [(String, String)] = [
            ("plain", #""plain""#),
            ("a\"b\\c", #""a\"b\\c""#),
            ("line\nbreak\ttab\r", #""line\nbreak\ttab\r""#),
            ("\u{01}\u{1F}", #""\u0001\u001f""#),
            ("Zürich 🚗", "\"Zürich 🚗\""),
            ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#),
            ("\u{2020}\u{20AC}\u{2028}", "\"\u{2020}\u{20AC}\\u2028\""),
        ]
        for (input, want) in cases {
            var out: [UInt8] = []
            JSONText.appendString(input, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), want)
        }
    }

    func testInvalidUTF8BecomesReplacementCharacter() {
        var out: [UInt8] = []
        JSONText.appendString(bytes: [0x61, 0xFF, 0x62], to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "\"a\u{FFFD}b\"")
    }
}
