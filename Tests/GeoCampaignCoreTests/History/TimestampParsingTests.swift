import XCTest
@testable import GeoCampaignCore

/// RFC 3339 strings and epoch-second numbers to Unix milliseconds (formats 2.1, semantics 0).
final class HistoryTimestampParsingTests: XCTestCase {
    func testRFC3339() {
        let cases: [(String, Int64?, UInt)] = [
            ("1970-01-01T00:00:00Z", 0, #line),
            ("1970-01-01t00:00:00z", 0, #line),
            ("2026-11-29T10:00:05Z", 1_795_946_405_000, #line),
            ("2026-03-02T09:14:18-08:00", 1_772_471_658_000, #line),
            ("2026-03-02T17:14:18+00:00", 1_772_471_658_000, #line),
            ("2026-03-02T17:14:18-00:00", 1_772_471_658_000, #line),
            ("2026-03-02T22:44:18+05:30", 1_772_471_658_000, #line),
            // Fractions: any length, rounded to ms from the digits, ties away from zero.
            ("1970-01-01T00:00:00.5Z", 500, #line),
            ("1970-01-01T00:00:00.123Z", 123, #line),
            ("1970-01-01T00:00:00.1234Z", 123, #line),
            ("1970-01-01T00:00:00.1235Z", 124, #line),
            ("1970-01-01T00:00:00.12349999999Z", 123, #line),
            ("1970-01-01T00:00:00.0005Z", 1, #line),
            ("1970-01-01T00:00:00.0004999Z", 0, #line),
            ("1970-01-01T00:00:00.9995Z", 1_000, #line),
            ("1969-12-31T23:59:59.9995Z", 0, #line),
            ("1969-12-31T23:59:59.0005Z", -999, #line),
            ("2026-03-02T17:14:18.000000000000001+01:00", 1_772_468_058_000, #line),
            // Calendar rules.
            ("2024-02-29T00:00:00Z", 1_709_164_800_000, #line),
            ("2000-02-29T00:00:00Z", 951_782_400_000, #line),
            ("2023-02-29T00:00:00Z", nil, #line),
            ("1900-02-29T00:00:00Z", nil, #line),
            ("2026-02-30T00:00:00Z", nil, #line),
            ("2026-04-31T00:00:00Z", nil, #line),
            ("2026-13-01T00:00:00Z", nil, #line),
            ("2026-00-01T00:00:00Z", nil, #line),
            ("2026-01-00T00:00:00Z", nil, #line),
            ("2026-01-01T24:00:00Z", nil, #line),
            ("2026-01-01T23:60:00Z", nil, #line),
            ("2016-12-31T23:59:60Z", nil, #line),
            // Syntax: strict RFC 3339.
            ("2026-01-01 00:00:00Z", nil, #line),
            ("2026-01-01T00:00:00", nil, #line),
            ("2026-01-01T00:00Z", nil, #line),
            ("2026-01-01T00:00:00.Z", nil, #line),
            ("2026-01-01T00:00:00+0100", nil, #line),
            ("2026-01-01T00:00:00+01", nil, #line),
            ("2026-01-01T00:00:00+24:00", nil, #line),
            ("2026-01-01T00:00:00+01:60", nil, #line),
            ("2026-01-01T00:00:00ZZ", nil, #line),
            ("2026-01-01T00:00:00Z ", nil, #line),
            (" 2026-01-01T00:00:00Z", nil, #line),
            ("26-01-01T00:00:00Z", nil, #line),
            ("+2026-01-01T00:00:00Z", nil, #line),
            ("2026-1-01T00:00:00Z", nil, #line),
            ("2026-01-01", nil, #line),
            ("", nil, #line),
            // Years 0001-9999.
            ("0001-01-01T00:00:00Z", -62_135_596_800_000, #line),
            ("0000-12-31T23:59:59Z", nil, #line),
            ("9999-12-31T23:59:59.999Z", 253_402_300_799_999, #line),
            ("9999-12-31T23:59:59.9995Z", nil, #line),
            ("9999-12-31T23:00:00-01:00", nil, #line),
            ("0001-01-01T00:30:00+01:00", nil, #line),
        ]
        for (text, expected, at) in cases {
            XCTAssertEqual(RFC3339.parse(text), expected, text, line: at)
        }
    }

    func testAssumingUTCAllowsMissingOffset() {
        XCTAssertEqual(RFC3339.parseAssumingUTC("2010-08-05T14:23:59"), 1_281_018_239_000)
        XCTAssertEqual(RFC3339.parseAssumingUTC("2010-08-05T14:23:59Z"), 1_281_018_239_000)
        XCTAssertEqual(RFC3339.parseAssumingUTC("2010-08-05T16:23:59+02:00"), 1_281_018_239_000)
        XCTAssertNil(RFC3339.parseAssumingUTC("2010-08-05"))
    }

    func ts(_ number: String) -> Int64? {
        let line = #"{"user": "a", "ts": \#(number), "lat": 0, "lon": 0}"#
        if case .accepted(_, let fix) = JSONLineParser().parse(line: Array(line.utf8)) { return fix.time }
        return nil
    }

    func testEpochSecondsNumbers() {
        let cases: [(String, Int64?, UInt)] = [
            ("0", 0, #line),
            ("-0", 0, #line),
            ("1772472679", 1_772_472_679_000, #line),
            ("1772471066.0", 1_772_471_066_000, #line),
            ("1772471066.25", 1_772_471_066_250, #line),
            ("1772471066.0005", 1_772_471_066_001, #line),
            ("1772471066.00049999999999999999", 1_772_471_066_000, #line),
            ("1772471066.9995", 1_772_471_067_000, #line),
            ("-1.0005", -1_001, #line),
            ("-1.0004", -1_000, #line),
            ("-0.0005", -1, #line),
            ("0.0005", 1, #line),
            // 0.0005 is not a double; rounding is done on the written digits.
            ("1.0005", 1_001, #line),
            ("1.7724726795e9", 1_772_472_679_500, #line),
            ("17724726795E-1", 1_772_472_679_500, #line),
            ("1e3", 1_000_000, #line),
            ("1e-3", 1, #line),
            ("5e-4", 1, #line),
            ("4.9e-4", 0, #line),
            ("1e-400", 0, #line),
            ("0e999999999999", 0, #line),
            ("-62135596800", -62_135_596_800_000, #line),
            ("-62135596800.0005", nil, #line),
            ("-62135596800.0004", -62_135_596_800_000, #line),
            ("253402300799.999", 253_402_300_799_999, #line),
            ("253402300799.9995", nil, #line),
            ("253402300800", nil, #line),
            ("1e400", nil, #line),
            ("99999999999999999999999", nil, #line),
        ]
        for (number, expected, at) in cases {
            XCTAssertEqual(ts(number), expected, number, line: at)
        }
    }

    /// The fast path of `JSONNumber.scaledInteger` (plain decimals with at most `scale` fraction
    /// digits) gives what the digit-by-digit path gives, on seeded random numbers of every
    /// length around its limits (18 scaled digits, `scale` fraction digits), both signs and all
    /// four scales; and it is taken on most of them, so the comparison is not of one path with
    /// itself. Negative control (run once): the fraction scaled by one power of ten too few
    /// fails this test and `testEpochSecondsNumbers`.
    func testTheFastScaledIntegerAgreesWithTheDigitByDigitOne() {
        var rng = SplitMix(seed: 0x5CA1ED)
        var fast = 0, compared = 0
        for _ in 0..<40_000 {
            var text = rng.next() % 4 == 0 ? "-" : ""
            let intDigits = 1 + Int(rng.next() % 20)
            for k in 0..<intDigits {
                let d = rng.next() % 10
                text += String(k == 0 && intDigits > 1 ? max(1, d) : d)
            }
            if rng.next() % 3 != 0 {
                text += "."
                for _ in 0..<(1 + Int(rng.next() % 6)) { text += String(rng.next() % 10) }
            }
            let scale = Int(rng.next() % 4)
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { b in
                let p = b.baseAddress!
                let expected = JSONNumber.scaledIntegerOfDigits(p, 0, b.count, scale: scale)
                XCTAssertEqual(JSONNumber.scaledInteger(p, 0, b.count, scale: scale), expected, "\(text) at scale \(scale)")
                let fraction = text.split(separator: ".").dropFirst().first?.count ?? 0
                if fraction <= scale && intDigits + scale <= 18 { fast += 1 }
                compared += 1
            }
        }
        XCTAssertGreaterThan(fast, compared / 3, "the fast path is taken on too few of the numbers to test it")
        XCTAssertGreaterThan(compared - fast, compared / 3, "the digit-by-digit path is taken on too few")
    }

    func testNumbersAreCorrectlyRounded() {
        let texts = ["37.70301", "-121.7599", "0.1", "0.30000000000000004", "89.99999999999999",
                     "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "37.703010000000000000001",
                     "123456789012345678", "0.000001", "-0.0", "1E+2", "1e-7", "9007199254740993",
                     "179.99999999999997", "45.123456789012345"]
        for text in texts {
            var m = JSONNumber.Measure()
            var isInt = false
            let bytes = Array(text.utf8)
            let v = bytes.withUnsafeBufferPointer { b -> Double in
                guard let p = b.baseAddress else { return .nan }
                let end = JSONNumber.scanMeasured(p, 0, b.count, isInteger: &isInt, measure: &m)
                XCTAssertEqual(end, b.count, text)
                return JSONNumber.double(m, p, 0, end)
            }
            XCTAssertEqual(v.bitPattern, Double(text)?.bitPattern, text)
        }
    }
}
