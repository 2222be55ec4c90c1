import XCTest
@testable import GeoCampaignCore

/// One CSV row at a time (docs/history-format.md "CSV"): separators, quoting, the field rules and
/// the order of reject reasons.
final class CSVRowParserTests: XCTestCase {
    let header = "user,ts,lat,lon,accuracy"
    /// 2026-11-29T10:00:05Z in Unix milliseconds.
    let t0: Int64 = 1_795_946_405_000

    func outcome(_ row: String, header: String? = nil, fields: HistoryFields = HistoryFields()) -> CSVRowParser.Outcome {
        CSVRowParser.parseRow(Array(row.utf8), header: Array((header ?? self.header).utf8), fields: fields)
    }

    func reason(_ row: String, header: String? = nil) -> RejectReason? {
        if case .rejected(let r, _) = outcome(row, header: header) { return r }
        return nil
    }

    func testAcceptedRows() {
        let cases: [(String, String?, String, Int64, Double, Double, Double?, UInt)] = [
            ("u-17,2026-11-29T10:00:05Z,37.70301,-121.7599,12", nil, "u-17", t0, 37.70301, -121.7599, 12, #line),
            // A space instead of T (RFC 3339 5.6 allows it), an offset, fractions.
            ("u,2026-11-29 11:00:05.250+01:00,1,2,", nil, "u", t0 + 250, 1, 2, nil, #line),
            ("u,2026-11-29t10:00:05z,1,2,0", nil, "u", t0, 1, 2, 0, #line),
            // Epoch seconds, with a fraction, and in exponent form.
            ("u,1795946405,1,2,", nil, "u", t0, 1, 2, nil, #line),
            ("u,1795946405.5,1,2,", nil, "u", t0 + 500, 1, 2, nil, #line),
            ("u,1.795946405e9,1,2,", nil, "u", t0, 1, 2, nil, #line),
            // Quoted cells: separators, doubled quotes and line ends inside; spaces around cells.
            (#""a,""b"" c",2026-11-29T10:00:05Z,"1.5","2",3"#, nil, #"a,"b" c"#, t0, 1.5, 2, 3, #line),
            ("\"multi\nline\",2026-11-29T10:00:05Z,1,2,", nil, "multi\nline", t0, 1, 2, nil, #line),
            ("  u  , 2026-11-29T10:00:05Z ,\t1\t, 2 , 3 ", nil, "u", t0, 1, 2, 3, #line),
            (#" "u" ,2026-11-29T10:00:05Z,1,2,"#, nil, "u", t0, 1, 2, nil, #line),
            // `;` separator, detected from the header, with decimal commas.
            ("u;2026-11-29T10:00:05Z;47,37;8,54;12,5", "user;ts;lat;lon;accuracy", "u", t0, 47.37, 8.54, 12.5, #line),
            ("u;2026-11-29T10:00:05Z;47.37;8.54", "user;ts;lat;lon", "u", t0, 47.37, 8.54, nil, #line),
            // Columns in any order, extra columns ignored, no accuracy column.
            ("x,1,2,2026-11-29T10:00:05Z,u", "note,lon,lat,ts,user", "u", t0, 2, 1, nil, #line),
            // An integer user id is its text; "-0" stays "-0".
            ("-0,2026-11-29T10:00:05Z,1,2,", nil, "-0", t0, 1, 2, nil, #line),
            ("1.0,2026-11-29T10:00:05Z,1,2,", nil, "1.0", t0, 1, 2, nil, #line),
            // Range ends.
            ("u,2026-11-29T10:00:05Z,-90,180,0", nil, "u", t0, -90, 180, 0, #line),
            ("u,0001-01-01T00:00:00Z,1,2,", nil, "u", RFC3339.minMilliseconds, 1, 2, nil, #line),
        ]
        for (row, h, user, time, lat, lon, acc, line) in cases {
            guard case .accepted(let u, let fix) = outcome(row, header: h) else {
                XCTFail("\(row): \(outcome(row, header: h))", line: line)
                continue
            }
            XCTAssertEqual(u, user, line: line)
            XCTAssertEqual(fix.time, time, line: line)
            XCTAssertEqual(fix.lat, lat, line: line)
            XCTAssertEqual(fix.lon, lon, line: line)
            if let acc { XCTAssertEqual(fix.accuracy, acc, line: line) } else { XCTAssertTrue(fix.accuracy.isNaN, line: line) }
        }
    }

    func testRejectedRowsAndTheirReasons() {
        let cases: [(String, String?, RejectReason, UInt)] = [
            // Structure: invalid UTF-8 first, then quoting and the column count (bad_type).
            ("u,2026-11-29T10:00:05Z,1,\u{FFFD}", nil, .badType, #line),   // valid UTF-8, 4 columns
            ("u,\"x,1,2,", nil, .badType, #line),                       // unclosed quote
            ("u,ab\"c,1,2,", nil, .badType, #line),                      // quote inside an unquoted cell
            ("u,\"2026-11-29T10:00:05Z\"x,1,2,", nil, .badType, #line),  // text after a closing quote
            ("u,2026-11-29T10:00:05Z,1,2", nil, .badType, #line),        // 4 columns, header 5
            ("u,2026-11-29T10:00:05Z,1,2,3,", nil, .badType, #line),     // 6 columns
            (",,,,", nil, .missingField, #line),
            // user
            (",2026-11-29T10:00:05Z,1,2,", nil, .missingField, #line),
            ("\"\",2026-11-29T10:00:05Z,1,2,", nil, .missingField, #line),
            ("2026-11-29T10:00:05Z,1,2", "ts,lat,lon", .missingField, #line),
            // ts
            ("u,,1,2,", nil, .missingField, #line),
            ("u,2026-11-29,1,2,", nil, .badTimestamp, #line),
            ("u,2026-11-29T10:00:05,1,2,", nil, .badTimestamp, #line),   // no offset
            ("u,2026-11-29T10:00:60Z,1,2,", nil, .badTimestamp, #line),  // leap second
            ("u,2026-02-30T10:00:05Z,1,2,", nil, .badTimestamp, #line),
            ("u,yesterday,1,2,", nil, .badTimestamp, #line),
            ("u,1e300,1,2,", nil, .badTimestamp, #line),
            ("u,+1795946405,1,2,", nil, .badTimestamp, #line),
            ("u,\"2026-11-29T10:00:05Z\"\"\",1,2,", nil, .badTimestamp, #line),
            // lat, lon: missing, then type, then range; ts checked before them.
            ("u,bad,,2,", nil, .badTimestamp, #line),
            ("u,2026-11-29T10:00:05Z,,2,", nil, .missingField, #line),
            ("u,2026-11-29T10:00:05Z,abc,2,", nil, .badType, #line),
            ("u,2026-11-29T10:00:05Z,nan,2,", nil, .badType, #line),
            ("u,2026-11-29T10:00:05Z,.5,2,", nil, .badType, #line),
            ("u,2026-11-29T10:00:05Z,1,0x10,", nil, .badType, #line),
            ("u,2026-11-29T10:00:05Z,1,\"1\"\"\",", nil, .badType, #line),
            ("u,2026-11-29T10:00:05Z,90.0001,2,", nil, .outOfRange, #line),
            ("u,2026-11-29T10:00:05Z,1,-180.5,", nil, .outOfRange, #line),
            ("u,2026-11-29T10:00:05Z,1e400,2,", nil, .outOfRange, #line),
            ("u,2026-11-29T10:00:05Z,1", "user,ts,lat", .missingField, #line),
            // A decimal comma only with the `;` separator.
            ("u,2026-11-29T10:00:05Z,\"47,3\",2,", nil, .badType, #line),
            // accuracy
            ("u,2026-11-29T10:00:05Z,1,2,-1", nil, .outOfRange, #line),
            ("u,2026-11-29T10:00:05Z,1,2,good", nil, .badType, #line),
        ]
        for (row, h, expected, line) in cases {
            XCTAssertEqual(reason(row, header: h), expected, "\(row)", line: line)
        }
        // Invalid UTF-8 beats everything after it.
        let bytes = Array("u,\"x,1,2,".utf8) + [0xFF]
        guard case .rejected(.badEncoding, _) = CSVRowParser.parseRow(bytes, header: Array(header.utf8)) else {
            return XCTFail("expected bad_encoding")
        }
    }

    func testTheFourColumnHeaderWithoutLonIsMissingLon() {
        // "user,ts,lat,accuracy": the row fits, accuracy is 2, and lon has no column.
        XCTAssertEqual(reason("u,2026-11-29T10:00:05Z,1,2", header: "user,ts,lat,accuracy"), .missingField)
    }

    func testBlankRowsAndTooLongRows() {
        XCTAssertEqual(outcome(" \t "), .blank)
        XCTAssertEqual(outcome(""), .blank)
        let long = "u,2026-11-29T10:00:05Z,1,2," + String(repeating: "9", count: 1 << 20)
        XCTAssertEqual(reason(long), .tooLong)
    }

    func testDetailsNameTheFieldAndTheHeader() {
        guard case .rejected(_, let d1) = outcome("d,2026-11-29T10:00:05Z,1,2", header: "device,ts,lat,lon") else { return XCTFail() }
        XCTAssertEqual(d1, #"missing field "user": the header has no column "user" (columns: "device", "ts", "lat", "lon")"#)
        guard case .rejected(_, let d2) = outcome("u,2026-11-29T10:00:05Z,1,2,3,4") else { return XCTFail() }
        XCTAssertEqual(d2, "the row has 6 columns, the header 5")
        guard case .rejected(_, let d3) = outcome("u,2026-11-29T10:00:05Z,north,2,") else { return XCTFail() }
        XCTAssertEqual(d3, #"field "lat" is "north", expected a number"#)
        guard case .rejected(_, let d4) = outcome("u,x\"y,1,2,") else { return XCTFail() }
        XCTAssertTrue(d4.hasPrefix("malformed CSV row: a quote inside an unquoted cell at byte 4"), d4)
    }

    func testFieldMappingAndDuplicateColumns() {
        var fields = HistoryFields()
        fields.user = "device"
        fields.ts = "time"
        guard case .accepted(let u, _) = outcome("d1,2026-11-29T10:00:05Z,1,2", header: "device,time,lat,lon", fields: fields) else {
            return XCTFail()
        }
        XCTAssertEqual(u, "d1")
        // The last of duplicate column names wins, as the last duplicate key does in JSON Lines.
        guard case .accepted(_, let fix) = outcome("u,2026-11-29T10:00:05Z,1,2,3", header: "user,ts,lat,lon,lat") else {
            return XCTFail()
        }
        XCTAssertEqual(fix.lat, 3)
        // Quoted header names, with a BOM-free `;` header.
        let p = CSVRowParser(header: Array(#""user";"ts";"lat";"lon""#.utf8))
        XCTAssertEqual(p.separator, 0x3B)
        XCTAssertEqual(p.columnCount, 4)
    }

    func testSeparatorDetection() {
        let cases: [(String, UInt8, Int, UInt)] = [
            ("user,ts,lat,lon", 0x2C, 4, #line),
            ("user;ts;lat;lon", 0x3B, 4, #line),
            ("user;ts;lat;lon,x", 0x3B, 4, #line),
            (#""a;b;c",ts,lat"#, 0x2C, 3, #line),   // separators inside quotes do not count
            ("user", 0x2C, 1, #line),
            ("a,b;c", 0x2C, 2, #line),              // a tie is `,`
        ]
        for (h, sep, count, line) in cases {
            let p = CSVRowParser(header: Array(h.utf8))
            XCTAssertEqual(p.separator, sep, h, line: line)
            XCTAssertEqual(p.columnCount, count, h, line: line)
        }
    }

    func testUnusableHeaderMakesEveryRowMissingField() {
        let p = CSVRowParser()
        XCTAssertNotNil(p.setHeader(Array("user,\"ts,lat".utf8)))
        guard case .rejected(.missingField, let d) = p.parse(row: Array("u,2026-11-29T10:00:05Z,1,2".utf8)) else {
            return XCTFail()
        }
        XCTAssertTrue(d.contains("malformed header row"), d)
    }

    /// Numbers and timestamps read from CSV cells are the values JSON Lines gives the same text,
    /// bit for bit (the CSV fast paths and the full parsers agree).
    func testValuesMatchJSONLinesBitForBit() {
        var rng = SplitMix64(seed: 7)
        let json = JSONLineParser()
        let csv = CSVRowParser(header: Array(header.utf8))
        let texts = ["0", "-0", "-0.0", "90", "1.5e1", "0.000001", "12.34567890123456", "1.2345678901234567", "89.999999999999999",
                     "-89.99999999999999", "37.123456789012345678", "0.1e-5", "1E1"]
        var cases = texts.map { ($0, $0, "2026-11-29T10:00:05.1234Z") }
        for _ in 0..<2_000 {
            let digits = Int(rng.next() % 12)
            let lat = String(format: "%.\(digits)f", Double(rng.next() % 180_000_000) / 1e6 - 90)
            let lon = String(format: "%.\(digits)f", Double(rng.next() % 360_000_000) / 1e6 - 180)
            let ts = rng.next() % 2 == 0 ? "\(1_795_946_405 + Int(rng.next() % 1_000_000)).\(rng.next() % 1000)"
                                         : "\"2026-11-\(10 + rng.next() % 19)T0\(rng.next() % 10):1\(rng.next() % 10):05.\(rng.next() % 1000)-08:00\""
            cases.append((lat, lon, ts))
        }
        for (lat, lon, ts) in cases {
            let line = #"{"user": "u", "ts": \#(ts.hasPrefix("\"") || Double(ts) != nil ? ts : "\"" + ts + "\""), "lat": \#(lat), "lon": \#(lon), "accuracy": \#(lat.hasPrefix("-") ? "1" : lat)}"#
            let row = "u,\(ts.replacingOccurrences(of: "\"", with: "")),\(lat),\(lon),\(lat.hasPrefix("-") ? "1" : lat)"
            let a = json.parse(line: Array(line.utf8)), b = csv.parse(row: Array(row.utf8))
            guard case .accepted(_, let fa) = a, case .accepted(_, let fb) = b else {
                XCTFail("\(line) \(a) / \(row) \(b)")
                continue
            }
            XCTAssertEqual([fa.time, Int64(bitPattern: fa.lat.bitPattern), Int64(bitPattern: fa.lon.bitPattern), Int64(bitPattern: fa.accuracy.bitPattern)],
                           [fb.time, Int64(bitPattern: fb.lat.bitPattern), Int64(bitPattern: fb.lon.bitPattern), Int64(bitPattern: fb.accuracy.bitPattern)], row)
        }
    }

    /// Random rows from an alphabet of the bytes that matter: no trap, and an accepted row keeps
    /// the field rules.
    func testRandomRowsKeepTheRules() {
        var rng = SplitMix64(seed: 21)
        let alphabet = Array("\"\",,;;0123456789-.eT: Z\n\r\t".utf8) + [0xFF, 0xC3, 0xA9]
        let headers = ["user,ts,lat,lon,accuracy", "user;ts;lat;lon", "\"user\",ts,lat,lon,lat"]
        var accepted = 0
        for round in 0..<20_000 {
            var row: [UInt8] = []
            if round % 3 == 0 { row = Array("u,1795946405,1,2,".utf8) }
            for _ in 0..<Int(rng.next() % 40) { row.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let header = headers[Int(rng.next() % UInt64(headers.count))]
            if case .accepted(let user, let fix) = CSVRowParser.parseRow(row, header: Array(header.utf8)) {
                accepted += 1
                XCTAssertFalse(user.isEmpty)
                XCTAssertTrue(fix.lat >= -90 && fix.lat <= 90 && fix.lon >= -180 && fix.lon <= 180, "\(row)")
                XCTAssertTrue(fix.accuracy.isNaN || fix.accuracy >= 0)
                XCTAssertTrue(fix.time >= RFC3339.minMilliseconds && fix.time <= RFC3339.maxMilliseconds)
            }
        }
        XCTAssertGreaterThan(accepted, 100)
    }

    func testEpochMilliseconds() {
        var fields = HistoryFields()
        fields.epochUnit = .milliseconds
        guard case .accepted(_, let fix) = outcome("u,1795946405123,1,2,", fields: fields) else { return XCTFail() }
        XCTAssertEqual(fix.time, t0 + 123)
        // RFC 3339 text is still read.
        guard case .accepted(_, let fix2) = outcome("u,2026-11-29T10:00:05Z,1,2,", fields: fields) else { return XCTFail() }
        XCTAssertEqual(fix2.time, t0)
        // Seconds read as milliseconds are 1970; milliseconds read as seconds are beyond 9999.
        guard case .rejected(.badTimestamp, let d) = outcome("u,1795946405123,1,2,") else { return XCTFail() }
        XCTAssertTrue(d.hasSuffix("epoch seconds, outside years 0001-9999"), d)
    }
}
