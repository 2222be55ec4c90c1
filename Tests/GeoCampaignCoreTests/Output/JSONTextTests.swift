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

    /// Random strings of escapes, ASCII, E2 sequences (U+2020..U+202F, U+20AC) and other scalars
    /// decode back, through a JSON parser, to themselves, with U+2028/9 and controls escaped.
    func testRandomStringsRoundTripThroughJSONSerialization() throws {
        var rng = SplitMix64(seed: 9)
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2020}", "\u{2027}",
                                      "\u{2028}", "\u{2029}", "\u{202A}", "\u{20AC}", "\u{E280}", "🚗", "\u{FFFD}"]
        for _ in 0..<2_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 12) { s.append(pool[Int(rng.next() % UInt64(pool.count))]) }
            let text = String(s)
            var out: [UInt8] = []
            JSONText.appendString(text, to: &out)
            let line = String(decoding: out, as: UTF8.self)
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" }, line)
            let back = try JSONSerialization.jsonObject(with: Data(("[" + line + "]").utf8)) as? [String]
            XCTAssertEqual(back, [text])
        }
    }
}
