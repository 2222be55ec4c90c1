import XCTest
@testable import GeoCampaignCore

/// Table-driven tests of the line parser: every reject reason, their priority, and accepted lines.
final class HistoryJSONLineParserTests: XCTestCase {
    static let base = #""ts": "2026-11-29T10:00:05Z", "lat": 37.70301, "lon": -121.7599"#

    /// Fix equality treating NaN accuracies as equal.
    static func same(_ a: JSONLineParser.Outcome, _ b: JSONLineParser.Outcome) -> Bool {
        if case .accepted(let ua, let fa) = a, case .accepted(let ub, let fb) = b {
            return ua == ub && fa.time == fb.time && fa.lat == fb.lat && fa.lon == fb.lon
                && (fa.accuracy == fb.accuracy || (fa.accuracy.isNaN && fb.accuracy.isNaN))
        }
        return a == b
    }

    func outcome(_ line: String, _ parser: JSONLineParser = JSONLineParser()) -> JSONLineParser.Outcome {
        parser.parse(line: Array(line.utf8))
    }

    func reason(_ bytes: [UInt8]) -> RejectReason? {
        if case .rejected(let r, _) = JSONLineParser().parse(line: bytes) { return r }
        return nil
    }

    func testRejectReasons() {
        let cases: [(String, RejectReason?, UInt)] = [
            // invalid_json
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2,}"#, .invalidJSON, #line),
            (#"{'user': "a"}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": +1, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": NaN, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 01, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1., "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": .5, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1e, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a\x", "ts": 1, "lat": 1, "lon": 2}"#, .invalidJSON, #line),
            (#"{"user": "a\u12", "ts": 1, "lat": 1, "lon": 2}"#, .invalidJSON, #line),
            ("{\"user\": \"a\tb\", \"ts\": 1, \"lat\": 1, \"lon\": 2}", .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2} x"#, .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2}{}"#, .invalidJSON, #line),
            (#"{"a": [1, 2,], "user": "a", "ts": 1, "lat": 1, "lon": 2}"#, .invalidJSON, #line),
            (#"{"a": {"b": [1, {"c": tru}]}, "user": "a"}"#, .invalidJSON, #line),
            (#"{"a": [[[[]]]]], "user": "a"}"#, .invalidJSON, #line),
            (#"{"user" "a"}"#, .invalidJSON, #line),
            (#"{"user": }"#, .invalidJSON, #line),
            (#"{,}"#, .invalidJSON, #line),
            ("\u{0B}{}", .invalidJSON, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "x": -}"#, .invalidJSON, #line),
            // not_object
            ("null", .notObject, #line),
            (#""{\"user\": \"u\"}""#, .notObject, #line),
            (#"["u", "2026-11-29T10:00:05Z", 1, 2]"#, .notObject, #line),
            ("42", .notObject, #line),
            (" true ", .notObject, #line),
            // missing_field, in field order
            ("{}", .missingField, #line),
            (#"{"ts": 1, "lat": 1, "lon": 2}"#, .missingField, #line),
            (#"{"user": "", "ts": 1, "lat": 1, "lon": 2}"#, .missingField, #line),
            (#"{"user": "a", "lat": 1, "lon": 2}"#, .missingField, #line),
            (#"{"user": "a", "ts": 1, "lon": 2}"#, .missingField, #line),
            (#"{"user": "a", "ts": 1, "lat": 2}"#, .missingField, #line),
            (#"{"User": "a", "ts": 1, "lat": 1, "lon": 2}"#, .missingField, #line),
            // bad_type
            (#"{"user": true, "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": null, "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": 12.5, "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": 1.0, "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": 1e3, "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": ["a"], "ts": 1, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": "a", "ts": {}, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": "a", "ts": null, "lat": 1, "lon": 2}"#, .badType, #line),
            (#"{"user": "a", "ts": 1, "lat": "37.6", "lon": 2}"#, .badType, #line),
            (#"{"user": "a", "ts": 1, "lat": null, "lon": 2}"#, .badType, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": false}"#, .badType, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "accuracy": "12"}"#, .badType, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "accuracy": true}"#, .badType, #line),
            // out_of_range
            (#"{"user": "a", "ts": 1, "lat": 91.5, "lon": 2}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": -90.000001, "lon": 2}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": -180.25}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": 1e400, "lon": 2}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": -1e400}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "accuracy": -4}"#, .outOfRange, #line),
            (#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "accuracy": -1e-300}"#, .outOfRange, #line),
            // bad_timestamp
            (#"{"user": "a", "ts": "yesterday", "lat": 1, "lon": 2}"#, .badTimestamp, #line),
            (#"{"user": "a", "ts": "2026-03-08T14:16:01", "lat": 1, "lon": 2}"#, .badTimestamp, #line),
            (#"{"user": "a", "ts": "2026-03-05T25:00:00Z", "lat": 1, "lon": 2}"#, .badTimestamp, #line),
            (#"{"user": "a", "ts": 1e12, "lat": 1, "lon": 2}"#, .badTimestamp, #line),
            (#"{"user": "a", "ts": -62135596801, "lat": 1, "lon": 2}"#, .badTimestamp, #line),
            // accepted edge cases
            (#"{"user": "a", "ts": 1, "lat": 90, "lon": -180}"#, nil, #line),
            (#"{"user": "a", "ts": 1, "lat": -90, "lon": 180, "accuracy": null}"#, nil, #line),
            (#"{"user": "a", "ts": 1, "lat": 0, "lon": 0, "accuracy": 0}"#, nil, #line),
            (#"{"user": "a", "ts": 1, "lat": 0, "lon": 0, "accuracy": -0}"#, nil, #line),
            (#"{"user": "a", "ts": 1, "lat": 0, "lon": 0, "x": {"y": [1, {"z": null}, "\u00e9"]}}"#, nil, #line),
            (#"{"user": -17, "ts": 1, "lat": 0, "lon": 0}"#, nil, #line),
            ("\t{ \"user\" : \"a\" , \"ts\" : 1 , \"lat\" : 0 , \"lon\" : 0 }\t ", nil, #line),
        ]
        for (line, expected, at) in cases {
            switch outcome(line) {
            case .blank:
                XCTFail("blank: \(line)", line: at)
            case .accepted:
                XCTAssertNil(expected, line, line: at)
            case .rejected(let r, let detail):
                XCTAssertEqual(r, expected, "\(line): \(detail)", line: at)
                XCTAssertFalse(detail.isEmpty, line: at)
            }
        }
    }

    func testPriorityOrder() {
        let cases: [([UInt8], RejectReason, UInt)] = [
            // too_long beats everything, even invalid UTF-8 and invalid JSON.
            (Array("{\"user\": \"".utf8) + [UInt8](repeating: 0xFF, count: 1 << 20), .tooLong, #line),
            // bad_encoding beats invalid_json.
            (Array("{\"user\": \"caf".utf8) + [0xE9] + Array(" x".utf8), .badEncoding, #line),
            (Array(#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "note": "caf"#.utf8) + [0xE9, 0x20, 0xFF] + Array("\"}".utf8),
             .badEncoding, #line),
            // Overlong, surrogate and out-of-range UTF-8 encodings are invalid.
            (Array("\"".utf8) + [0xC0, 0xAF] + Array("\"".utf8), .badEncoding, #line),
            (Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8), .badEncoding, #line),
            (Array("\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"".utf8), .badEncoding, #line),
            (Array("\"".utf8) + [0xE2, 0x82] + Array("\"".utf8), .badEncoding, #line),
            // invalid_json beats not_object.
            (Array("[1, 2".utf8), .invalidJSON, #line),
            // Lone surrogate in the user id: bad_encoding, even with other fields missing.
            (Array(#"{"user": "a\ud800"}"#.utf8), .badEncoding, #line),
            (Array(#"{"user": "\udc00b", "ts": 1, "lat": 1, "lon": 2}"#.utf8), .badEncoding, #line),
            // but not in a user id that is not the last duplicate.
            (Array(#"{"user": "\ud800", "user": "", "ts": 1, "lat": 1, "lon": 2}"#.utf8), .missingField, #line),
            // user before ts before lat before lon before accuracy.
            (Array(#"{"user": 1.5, "ts": "x", "lat": 100}"#.utf8), .badType, #line),
            (Array(#"{"user": "a", "ts": "x", "lat": "y"}"#.utf8), .badTimestamp, #line),
            (Array(#"{"user": "a", "ts": null, "lon": 2}"#.utf8), .badType, #line),
            (Array(#"{"user": "a", "ts": 1, "lat": 100, "lon": "y"}"#.utf8), .outOfRange, #line),
            (Array(#"{"user": "a", "ts": 1, "lat": 10, "lon": "y", "accuracy": -1}"#.utf8), .badType, #line),
            (Array(#"{"user": "a", "ts": 1, "lat": 10, "accuracy": "x"}"#.utf8), .missingField, #line),
            // for one field: missing (empty user) before type before range.
            (Array(#"{"user": "", "ts": true}"#.utf8), .missingField, #line),
        ]
        for (bytes, expected, at) in cases {
            XCTAssertEqual(reason(bytes), expected, String(decoding: bytes.prefix(80), as: UTF8.self), line: at)
        }
    }

    func testLineLengthLimitIsOneMiB() {
        let head = Array(#"{"user": "a", "ts": 1, "lat": 1, "lon": 2, "pad": ""#.utf8)
        let tail = Array("\"}".utf8)
        let pad = (1 << 20) - head.count - tail.count
        let exact = head + [UInt8](repeating: 0x78, count: pad) + tail
        XCTAssertEqual(exact.count, 1 << 20)
        XCTAssertNil(reason(exact))
        let over = head + [UInt8](repeating: 0x78, count: pad + 1) + tail
        XCTAssertEqual(reason(over), .tooLong)
    }

    func testBlankLines() {
        for line in ["", " ", "\t", " \t  \t"] {
            XCTAssertEqual(outcome(line), .blank, "\(Array(line.utf8))")
        }
        // Other whitespace is not blank: an empty JSON text is invalid.
        XCTAssertEqual(reason(Array("\r".utf8)), .invalidJSON)
        XCTAssertEqual(reason(Array(" \u{0C} ".utf8)), .invalidJSON)
    }

    func testAcceptedValues() {
        let parser = JSONLineParser()
        let cases: [(String, String, Fix, UInt)] = [
            (#"{"user": "u-17", "ts": "2026-11-29T10:00:05Z", "lat": 37.70301, "lon": -121.75990, "accuracy": 12}"#,
             "u-17", Fix(time: 1_795_946_405_000, lat: 37.70301, lon: -121.7599, accuracy: 12), #line),
            (#"{"user": 50189, "ts": 1772472679, "lat": 37.70409366, "lon": -121.76122642}"#,
             "50189", Fix(time: 1_772_472_679_000, lat: 37.70409366, lon: -121.76122642), #line),
            (#"{"user": -0, "ts": 0, "lat": 0, "lon": 0}"#, "-0", Fix(time: 0, lat: 0, lon: 0), #line),
            (#"{"user": 123456789012345678901234567890, "ts": 0, "lat": 0, "lon": 0}"#,
             "123456789012345678901234567890", Fix(time: 0, lat: 0, lon: 0), #line),
            (#"{"user": "\u00df-1\n\"\\\/", "ts": 0, "lat": 0, "lon": 0}"#, "ß-1\n\"\\/", Fix(time: 0, lat: 0, lon: 0), #line),
            (#"{"user": "\ud83d\ude00", "ts": 0, "lat": 0, "lon": 0}"#, "😀", Fix(time: 0, lat: 0, lon: 0), #line),
            (#"{"user": "Zürich", "ts": 0, "lat": 0, "lon": 0}"#, "Zürich", Fix(time: 0, lat: 0, lon: 0), #line),
            // Duplicate keys: the last wins.
            (#"{"user": "a", "user": "b", "ts": 5, "ts": 6, "lat": 100, "lat": 1, "lon": 2, "accuracy": -1, "accuracy": null}"#,
             "b", Fix(time: 6_000, lat: 1, lon: 2), #line),
            // Escaped keys are matched after decoding.
            (#"{"\u0075ser": "a", "t\u0073": 1, "lat": 1, "lon": 2}"#, "a", Fix(time: 1_000, lat: 1, lon: 2), #line),
            // Escaped timestamp text.
            (#"{"user": "a", "ts": "2026-11-29T10:00:05\u005a", "lat": 1, "lon": 2}"#, "a",
             Fix(time: 1_795_946_405_000, lat: 1, lon: 2), #line),
            // Exponents and long mantissas are correctly rounded.
            (#"{"user": "a", "ts": 0, "lat": 3.770301e1, "lon": -121.759900000000000000001, "accuracy": 1E2}"#, "a",
             Fix(time: 0, lat: 37.70301, lon: -121.7599, accuracy: 100), #line),
        ]
        for (line, user, fix, at) in cases {
            guard case .accepted(let u, let f) = parser.parse(line: Array(line.utf8)) else {
                XCTFail("not accepted: \(line) \(outcome(line))", line: at)
                continue
            }
            XCTAssertEqual(u, user, line: at)
            XCTAssertEqual(f.time, fix.time, line: at)
            XCTAssertEqual(f.lat, fix.lat, line: at)
            XCTAssertEqual(f.lon, fix.lon, line: at)
            XCTAssertEqual(f.accuracy.isNaN, fix.accuracy.isNaN, line: at)
            if !fix.accuracy.isNaN { XCTAssertEqual(f.accuracy, fix.accuracy, line: at) }
        }
    }

    func testFieldMapping() throws {
        var fields = HistoryFields()
        try fields.apply("user=device_id")
        try fields.apply("lat=latitude")
        try fields.apply("accuracy=acc")
        let parser = JSONLineParser(fields: fields)
        let line = #"{"device_id": "d1", "user": "ignored", "ts": 1, "latitude": 5, "lat": 99, "lon": 6, "acc": 7}"#
        XCTAssertEqual(outcome(line, parser), .accepted(user: "d1", fix: Fix(time: 1_000, lat: 5, lon: 6, accuracy: 7)))
        guard case .rejected(.missingField, let detail) = outcome(#"{"user": "u", "ts": 1, "lat": 1, "lon": 2}"#, parser) else {
            return XCTFail("expected missing_field")
        }
        XCTAssertTrue(detail.contains("device_id"), detail)

        for bad in ["user", "user=", "speed=s", "=x"] {
            var f = HistoryFields()
            XCTAssertThrowsError(try f.apply(bad), bad)
        }
    }

    func testParserIsReusableAcrossLines() {
        let parser = JSONLineParser()
        XCTAssertTrue(Self.same(outcome(#"{"user": "a\u00e9", "ts": 1, "lat": 1, "lon": 2}"#, parser),
                                .accepted(user: "aé", fix: Fix(time: 1_000, lat: 1, lon: 2))))
        XCTAssertTrue(Self.same(outcome(#"{"user": "b", "ts": 2, "lat": 3, "lon": 4}"#, parser),
                                .accepted(user: "b", fix: Fix(time: 2_000, lat: 3, lon: 4))))
        XCTAssertEqual(outcome(#"{"ts": 2, "lat": 3, "lon": 4}"#, parser),
                       .rejected(.missingField, detail: "missing field \"user\""))
    }

    func testDeepNestingDoesNotRecurse() {
        let depth = 200_000
        let deep = "{\"x\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "user": "a", "ts": 1, "lat": 1, "lon": 2}"#
        XCTAssertTrue(Self.same(outcome(deep), .accepted(user: "a", fix: Fix(time: 1_000, lat: 1, lon: 2))))
        let unclosed = "{\"x\": " + String(repeating: "[{\"a\":", count: depth / 2)
        XCTAssertEqual(reason(Array(unclosed.utf8)), .invalidJSON)
    }
}
