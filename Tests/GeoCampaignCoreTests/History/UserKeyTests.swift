import XCTest
@testable import GeoCampaignCore

final class UserKeyTests: XCTestCase {
    func testKeysAreEqualOnlyForTheSameBytes() {
        let cases: [(String, String, Bool)] = [
            ("u-17", "u-17", true),
            ("\u{E9}", "e\u{301}", false),          // canonically equivalent, other bytes
            ("\u{212B}", "\u{C5}", false),          // Angstrom sign and A with ring
            ("e\u{301}", "e\u{301}", true),
            ("", "", true),
            ("a", "a ", false),
        ]
        for (a, b, same) in cases {
            XCTAssertEqual(UserKey(a) == UserKey(b), same, "\(Array(a.utf8)) against \(Array(b.utf8))")
            if same { XCTAssertEqual(UserKey(a).hashValue, UserKey(b).hashValue) }
        }
    }

    /// The premise, and the negative control of the test above: `String` keys take the two ids
    /// as one, `UserKey`s as two.
    func testADictionaryKeepsCanonicallyEquivalentIdsApart() {
        var strings: [String: Int] = [:], keys: [UserKey: Int] = [:]
        for (i, id) in ["\u{E9}", "e\u{301}"].enumerated() {
            strings[id] = i
            keys[UserKey(id)] = i
        }
        XCTAssertEqual(strings.count, 1)
        XCTAssertEqual(keys.count, 2)
        XCTAssertEqual(keys[UserKey("e\u{301}")], 1)
        XCTAssertEqual(keys[UserKey("\u{E9}")], 0)
    }
}
