import XCTest
@testable import GeoCampaignCore

final class LoadingJSONDocumentTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONNode {
        var p = JSONParser(bytes: Array(text.utf8))
        return try p.parse()
    }

    func testMarksOfNestedValuesAndPositions() throws {
        // Columns count characters (é, 😀 are one each); CR before LF is not a column of the next line.
        let text = "{\"é😀\": {\"a\": [[1, 2],\r\n   [3.5, -4]],\r\n \"b\": {\"c\": \"ü\"}},\n\"d\" :\t[ [10,20] ]}"
        let root = try parse(text)
        let inner = try XCTUnwrap(root["é😀"])
        let a = try XCTUnwrap(inner["a"])
        let cases: [(String, SourceMark?, SourceMark)] = [
            ("root", root.mark, SourceMark(line: 1, column: 1)),
            ("object after a multibyte name", inner.mark, SourceMark(line: 1, column: 8)),
            ("array", a.mark, SourceMark(line: 1, column: 14)),
            ("first position", a.array?[0].mark, SourceMark(line: 1, column: 15)),
            ("second position after CRLF", a.array?[1].mark, SourceMark(line: 2, column: 4)),
            ("number in a position", a.array?[1].array?[1].mark, SourceMark(line: 2, column: 10)),
            ("itemMark", a.itemMark(1), SourceMark(line: 2, column: 4)),
            ("string on a line after CRLF", inner["b"]?["c"]?.mark, SourceMark(line: 3, column: 13)),
            ("after a tab", root["d"]?.mark, SourceMark(line: 4, column: 7)),
            ("position after a space", root["d"]?.itemMark(0), SourceMark(line: 4, column: 9)),
        ]
        for (name, got, expected) in cases {
            XCTAssertEqual(got, expected, name)
        }
        XCTAssertEqual(a.positions, [Coordinate(lat: 2, lon: 1), Coordinate(lat: -4, lon: 3.5)])
        XCTAssertEqual(root["d"]?.array?[0].position, Coordinate(lat: 20, lon: 10))
    }

    func testMarksAfterByteOrderMarkAndOnALongLine() throws {
        let bom = try parse("\u{FEFF}{\"a\": 1}")
        XCTAssertEqual(bom.mark, SourceMark(line: 1, column: 1), "the BOM is not a column")
        XCTAssertEqual(bom["a"]?.mark, SourceMark(line: 1, column: 7))
        // A one-line file far longer than the block size of the column table.
        let items = (0..<3_000).map { "\"é\($0)\"" }.joined(separator: ",")
        let long = try parse("[" + items + "]")
        let all = try XCTUnwrap(long.array)
        var column = 2
        for (k, item) in all.enumerated() {
            if k % 997 == 0 || k == all.count - 1 { XCTAssertEqual(item.mark, SourceMark(line: 1, column: column), "item \(k)") }
            column += "\"é\(k)\",".count
        }
    }

    func testStringsDecodeLazilyWithEscapes() throws {
        let cases: [(String, String)] = [
            (#""plain é""#, "plain é"),
            (#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{8}\u{C}\n\r\t"),
            (#""x\u00e9\ud83d\ude00""#, "xé😀"),
            (#""lone high \ud800 end""#, "lone high \u{FFFD} end"),
            (#""lone low \udc00""#, "lone low \u{FFFD}"),
            (#""high then not low \ud800\u0041!""#, "high then not low \u{FFFD}!"),
            (#""\u0000""#, "\u{0}"),
            ("\"\u{FFFD}\\n\"", "\u{FFFD}\n"),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(try parse("[" + json + "]").array?.first?.string, expected, json)
        }
        // Invalid UTF-8 next to an escape decodes as one text, as before.
        var p = JSONParser(bytes: [0x5B, 0x22, 0xC3, 0x5C, 0x75, 0x30, 0x30, 0x41, 0x39, 0x22, 0x5D])
        XCTAssertEqual(try p.parse().array?.first?.string, "\u{FFFD}©")
    }

    func testMemberNamesCompareAsStrings() throws {
        let root = try parse(#"{"type": 1, "t\u0079pe": 2, "Ke\u0301": 3, "x": 4, "x": 5, "\u212A": 6}"#)
        XCTAssertEqual(root["type"]?.number, 1, "the first of equal names")
        XCTAssertEqual(root["x"]?.number, 4)
        XCTAssertEqual(root["Ké"]?.number, 3, "canonically equivalent names are equal Swift strings")
        XCTAssertEqual(root["K"]?.number, 6, "the Kelvin sign is canonically K")
        XCTAssertNil(root["typ"])
        XCTAssertNil(root["x"]?["x"])
        XCTAssertFalse(try parse("[]").isObject)
    }

    /// Names prepared once (`JSONTape.Key`, compared a word at a time) find the members that
    /// names as strings find: names of 0 to 12 bytes that differ in any byte, escaped names,
    /// names equal only as Unicode text, repeated names, and names at the very end of the
    /// text (fewer than 8 bytes after them).
    func testPreparedNamesFindTheMembersStringsFind() throws {
        var rng = SplitMix64(seed: 31)
        let alphabet = Array("abé\u{0301}ez")
        var names = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijkl", "e\u{0301}", "\u{00e9}", "é", "caf\u{00e9}", "cafe\u{0301}"]
        for _ in 0..<300 {
            names.append(String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }))
        }
        for trial in 0..<200 {
            let members = (0..<Int.random(in: 1...6, using: &rng)).map { _ in names[Int.random(in: 0..<names.count, using: &rng)] }
            // Some names written with an escape for their first character.
            let written = members.enumerated().map { k, n -> String in
                guard (k + trial) % 3 == 0, let first = n.unicodeScalars.first, first.isASCII else { return n }
                return String(format: "\\u%04x", first.value) + String(n.unicodeScalars.dropFirst())
            }
            let text = "{" + written.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
            let doc = try JSONParser(bytes: Array(text.utf8)).document()
            let tape = doc.tape
            for name in Set(names.prefix(12) + members) {
                XCTAssertEqual(tape.member(0, JSONTape.Key(name)), tape.member(0, name), "\(name) in \(text)")
            }
        }
    }

    func testNumbersKeepTheirText() throws {
        let cases: [(String, String, Double)] = [
            ("12345678901", "12345678901", 12345678901),
            ("2.50", "2.50", 2.5),
            ("-3e2", "-300", -300),
            ("1.5e-3", "0.0015", 0.0015),
            ("0.1", "0.1", 0.1),
            ("12345678901234567890", "12345678901234567890", 12345678901234567168),  // the nearest Double
            ("1.5E3", "1500", 1500),
            ("1.25e-1", "0.125", 0.125),
            ("-0", "0", 0),
            ("-121.5404641", "-121.5404641", -121.5404641),
        ]
        for (json, text, value) in cases {
            let n = try XCTUnwrap(try parse("[" + json + "]").array?.first)
            XCTAssertEqual(n.text, text, json)
            XCTAssertEqual(n.number, value, json)
        }
        let other = try parse(#"[true, false, null, {}, []]"#)
        XCTAssertEqual(other.array?.map(\.isNull), [false, false, true, false, false])
        XCTAssertEqual(other.array?.compactMap(\.text), [])
    }

    func testNumberValuesEqualDoubleOfTheirText() throws {
        let texts = ["0", "-0", "0.1", "-121.5404641", "37.8165355", "123456789012345", "0.123456789012345",
                     "1234567890123456", "12345678901234567", "98765432109876543210", "0.0000000000000000000001",
                     "0.00000000000000000000001", "1.0000000000000002", "9007199254740993", "1e22", "1.7976931348623157e308",
                     "4.9e-324", "-2.2250738585072014E-308", "100000000000000000000000", "0.30000000000000004"]
        for text in texts {
            let n = try XCTUnwrap(try parse("[" + text + "]").array?.first?.number, text)
            let expected = try XCTUnwrap(Double(text))
            XCTAssertEqual(n.bitPattern, expected.bitPattern, text)
        }
    }

    func testInvalidJSONMarks() {
        let cases: [(String, Int, Int, String)] = [
            ("{\"a\": [1, 2,]}", 1, 13, "unexpected text: a JSON value is an object, array, string, number, true, false or null"),
            ("{\"é\":\r\n  [1,\n   \"ü\\q\"]}", 3, 8, "unknown escape in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"),
            ("\u{FEFF}[1 2]", 1, 4, "expected ',' or ']' in an array"),
            ("{\"a\" 1}", 1, 6, "expected ':' after the member name"),
            ("{\"a\": 1,}", 1, 9, "expected a quoted member name"),
            ("[\"ab\ncd\"]", 1, 5, "a control character (such as a line break) inside a string: write it as an escape like \\n"),
            ("[\"é", 1, 4, "a string is never closed: add the closing '\"'"),
            ("[\"\\u12g4\"]", 1, 7, "a \\u escape needs 4 hex digits"),
            ("[1.]", 1, 4, "a number needs digits after the decimal point"),
            ("[1e+]", 1, 5, "a number needs digits in its exponent"),
            ("[1e999]", 1, 7, "a number is too large (beyond 1.8e308)"),
            ("[tru]", 1, 2, "unexpected text: a JSON value is an object, array, string, number, true, false or null"),
            ("{}\n x", 2, 2, "unexpected text after the end of the JSON value"),
            ("[1,\n", 2, 1, "the JSON text ends where a value was expected"),
            ("{\"a\": 1", 1, 8, "the JSON text ends inside an object: add the closing '}'"),
            (String(repeating: "[", count: 65), 1, 65, "the JSON is nested more than 64 levels deep"),
        ]
        for (text, line, column, message) in cases {
            var p = JSONParser(bytes: Array(text.utf8))
            XCTAssertThrowsError(try p.parse(), text) {
                let problem = $0 as? YAMLProblem
                XCTAssertEqual(problem?.mark, SourceMark(line: line, column: column), text)
                XCTAssertEqual(problem?.message, message, text)
            }
        }
    }

    func testImportDiagnosticsPointAtCoordinates() throws {
        let dir = NSTemporaryDirectory() + "geocampaign-jsondoc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let features = [
            #"{"type": "Feature", "id": "é-1", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}},"#,
            #"{"type": "Feature", "id": "ü-2", "geometry": {"type": "Point", "coordinates": [37.5, -200]}},"#,
            #"{"type": "Feature", "id": "ß-3", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [1, 0]], [[5, 5], [5, 6], [6, 6]]]}},"#,
            #"  {"type": "Feature", "properties": {"id": "\u00e9-1"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
        ]
        let geojson = "{\"type\": \"FeatureCollection\", \"features\": [\r\n" + features.joined(separator: "\r\n") + "\r\n]}"
        try geojson.write(toFile: dir + "/f.geojson", atomically: true, encoding: .utf8)
        let yaml = "campaign: c\nregions:\n  - import: f.geojson\n    radius: 100m\nrules:\n  - id: r\n    when: { inside: { regions: [é-1] } }\n    offer: o\noffers:\n  - id: o\n"
        try yaml.write(toFile: dir + "/c.yaml", atomically: true, encoding: .utf8)
        let result = CampaignLoader().load(paths: [dir + "/c.yaml"])
        let got = result.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column): \($0.severity.rawValue): \($0.message)" }
        XCTAssertEqual(got, [
            "f.geojson:2:99: warning: feature 1 ('é-1') crosses itself near 0.0, 1.0: the edge from point 1 to point 2 crosses the edge from point 3 to point 4; swap points 2 and 3; inside and outside follow the even-odd rule",
            "f.geojson:3:79: error: feature 2 ('ü-2') has a position out of range (longitude 37.5, latitude -200): GeoJSON writes [longitude, latitude], longitude first",
            "f.geojson:4:117: error: point 1 of hole 1 lies outside the outline of feature 3 ('ß-3'): a hole must lie inside the polygon it is cut from",
            "f.geojson:5:44: error: feature 4 ('é-1') has the id 'é-1', already used by feature 1 ('é-1') of 'f.geojson', imported on line 3 in \(dir)/c.yaml: region ids must be unique in a campaign (use id_property: to pick another property)",
        ])
        XCTAssertEqual(result.regionCount, 1)
    }

    func testNodeMemoryThatCannotBeMappedIsAnErrorNotACrash() throws {
        // 2^53 nodes of 24 bytes: no address space holds them; mmap fails and allocate says so
        // (it was a fatalError). The parser throws the message as a YAMLProblem at the value read.
        let capacity = 1 << 53
        XCTAssertNil(NodeMemory.allocate(capacity))
        let message = NodeMemory.failureMessage(capacity)
        XCTAssertTrue(message.hasPrefix("out of memory: \(capacity * MemoryLayout<JSONTape.Node>.stride) bytes for the parsed JSON document"), message)
        // A mapping that can be had still is.
        let p = try XCTUnwrap(NodeMemory.allocate(16))
        NodeMemory.free(p, capacity: 16)
    }
}
