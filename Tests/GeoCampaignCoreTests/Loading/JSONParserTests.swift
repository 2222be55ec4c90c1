import XCTest
@testable import GeoCampaignCore

final class LoadingJSONParserTests: XCTestCase {
    static let suite = TestData.path("JSONTestSuite/test_parsing")

    /// nst/JSONTestSuite: every y_ file parses, every n_ file is rejected, i_ files do not crash.
    func testJSONTestSuite() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.suite), "JSONTestSuite not present")
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.suite).sorted()
        XCTAssertGreaterThan(names.count, 300)
        for name in names {
            guard let data = FileManager.default.contents(atPath: Self.suite + "/" + name) else { continue }
            var parser = JSONParser(bytes: [UInt8](data))
            let ok: Bool
            do {
                _ = try parser.parse()
                ok = true
            } catch {
                ok = false
                XCTAssertGreaterThanOrEqual(error.mark.line, 1, name)
            }
            if name.hasPrefix("y_") { XCTAssertTrue(ok, "\(name) should parse") }
            // Invalid UTF-8 inside strings is replaced, not rejected: that is a reader's choice RFC 8259 leaves open.
            if name.hasPrefix("n_") && !name.contains("UTF8") && !name.contains("utf8") { XCTAssertFalse(ok, "\(name) should be rejected") }
        }
    }

    func testMarksAndValues() throws {
        var p = JSONParser(bytes: Array("{\n  \"a\": [1, 2.50, -3e2],\n  \"é\": \"x\\u00e9\\ud83d\\ude00\", \"n\": 12345678901\n}".utf8))
        let root = try p.parse()
        XCTAssertEqual(root.mark, SourceMark(line: 1, column: 1))
        let a = try XCTUnwrap(root["a"]?.array)
        XCTAssertEqual(a.map(\.mark), [SourceMark(line: 2, column: 9), SourceMark(line: 2, column: 12), SourceMark(line: 2, column: 18)])
        XCTAssertEqual(a.compactMap(\.text), ["1", "2.50", "-300"])
        XCTAssertEqual(root["é"]?.string, "xé😀")
        XCTAssertEqual(root["é"]?.mark, SourceMark(line: 3, column: 8), "é is one column")
        XCTAssertEqual(root["n"]?.text, "12345678901")
        var bad = JSONParser(bytes: Array("{\"a\": [1, 2,]}".utf8))
        XCTAssertThrowsError(try bad.parse()) { XCTAssertEqual(($0 as? YAMLProblem)?.mark, SourceMark(line: 1, column: 13)) }
    }

    func testDeepNestingIsRejectedNotCrashing() {
        var p = JSONParser(bytes: Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        XCTAssertThrowsError(try p.parse()) {
            XCTAssertEqual(($0 as? YAMLProblem)?.message, "the JSON is nested more than 64 levels deep")
        }
    }
    /// Every number literal gets the same double as `Double(text)` (the correctly rounded value),
    /// whether the fast path or the fallback reads it: random decimals of every length around
    /// the fast path's limits (19 digits, 2^53, 22 decimals), and edge literals.
    func testNumbersEqualDoubleOfTheirText() throws {
        var rng = SplitMix64(seed: 7)
        var literals = ["0", "-0", "0.0", "-0.0", "1", "9007199254740992", "9007199254740993", "9007199254740991.5",
                        "0.9007199254740993", "1844674407370955161", "18446744073709551615", "18446744073709551616",
                        "99999999999999999999", "0.0000000000000000000001", "0.00000000000000000000001234",
                        "1.0000000000000000000000", "123456789012345678.9", "1e22", "1.5e-300", "4.9e-324", "2.2250738585072014e-308",
                        "1.7976931348623157e308", "-121.7853829", "37.5737659", "0.1", "0.3", "2.675", "1.00000000000000011102230246251565404236316680908203125",
                        // 2^53 - 1, 2^53 and 2^53 + 1 as mantissas, with and without a point, and a
                        // mantissa of 2^53 from more digits than it needs.
                        "9007199254740991", "-9007199254740992", "-9007199254740993", "900719925474099.1", "900719925474099.2",
                        "900719925474099.3", "0.9007199254740991", "-0.9007199254740992", "9007199254740992.0",
                        "1e5", "1E5", "1.5e-7", "-2.5E+10", "0e0", "-0e-0", "-0.0e1", "1e-22", "1e23", "123456789e-30"]
        let digits = Array("0123456789")
        for _ in 0..<20_000 {
            var t = Bool.random(using: &rng) ? "-" : ""
            let whole = Int.random(in: 0...20, using: &rng)
            if whole == 0 || Int.random(in: 0...4, using: &rng) == 0 {
                t += "0"
            } else {
                t.append(digits[Int.random(in: 1...9, using: &rng)])
                for _ in 1..<whole { t.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            if Int.random(in: 0...5, using: &rng) != 0 {
                t += "."
                let zeros = Int.random(in: 0...3, using: &rng) == 0 ? Int.random(in: 1...20, using: &rng) : 0
                t += String(repeating: "0", count: zeros)
                for _ in 0..<Int.random(in: 1...24, using: &rng) { t.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            if Int.random(in: 0...5, using: &rng) == 0 {
                t += ["e", "E", "e+", "e-", "E-"][Int.random(in: 0...4, using: &rng)] + String(Int.random(in: 0...30, using: &rng))
            }
            literals.append(t)
        }
        let text = "[" + literals.joined(separator: ",") + "]"
        var parser = JSONParser(bytes: Array(text.utf8))
        let items = try XCTUnwrap(try parser.parse().array)
        XCTAssertEqual(items.count, literals.count)
        for (node, literal) in zip(items, literals) {
            let want = try XCTUnwrap(Double(literal), literal)
            let got = try XCTUnwrap(node.number, literal)
            XCTAssertEqual(got.bitPattern, want.bitPattern, literal)
        }
        for (bad, column) in [("[1.]", 4), ("[-x]", 3), ("[1e+]", 5), ("[1.5e]", 6), ("[-]", 3)] {
            var p = JSONParser(bytes: Array(bad.utf8))
            XCTAssertThrowsError(try p.parse(), bad) { XCTAssertEqual(($0 as? YAMLProblem)?.mark.column, column, bad) }
        }
    }

    /// `shortNumber` (one load for the digits before the point, one for those after it) gives,
    /// wherever it gives a value, the value and end `fastNumber` gives: on 200,000 texts of 0-9
    /// digits before and 0-9 after a point, leading zeros, signs, exponents and other bytes
    /// after them, each followed by the 24 bytes it may read. It reads most coordinates.
    func testShortNumbersAreTheFastPathsNumbers() {
        var rng = SplitMix64(seed: 23)
        let digits = Array("0123456789")
        var read = 0, coordinates = 0, coordinatesRead = 0
        for n in 0..<200_000 {
            var t = [ "", "", "-", "+", "--"][Int.random(in: 0...4, using: &rng)]
            let whole = Int.random(in: 0...9, using: &rng)
            for k in 0..<whole { t.append(digits[Int.random(in: k == 0 && n % 3 == 0 ? 1...9 : 0...9, using: &rng)]) }
            if Int.random(in: 0...4, using: &rng) != 0 {
                t += "."
                for _ in 0..<Int.random(in: 0...9, using: &rng) { t.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            t += ["", "", "", "e5", "E-2", "e", ".", "x", "0"][Int.random(in: 0...8, using: &rng)]
            t += [",", "]", " ", "", "\t", "}", "a"][Int.random(in: 0...6, using: &rng)]
            let coordinate = t.range(of: #"^-?(0|[1-9][0-9]{0,6})\.[0-9]{1,7}[,\]]$"#, options: .regularExpression) != nil
            let bytes = Array(t.utf8) + Array(repeating: UInt8(ascii: "7"), count: 24)
            bytes.withUnsafeBufferPointer { b in
                guard let p = b.baseAddress else { return }
                var j1 = 0, j2 = 0
                let short = JSONParser.shortNumber(p, &j1)
                let fast = JSONParser.fastNumber(p, b.count, &j2)
                if coordinate { coordinates += 1 }
                guard let short else { return XCTAssertEqual(j1, 0, t) }
                read += 1
                if coordinate { coordinatesRead += 1 }
                XCTAssertEqual(short.bitPattern, fast?.bitPattern, t)
                XCTAssertEqual(j1, j2, t)
            }
        }
        XCTAssertGreaterThan(read, 30_000)
        XCTAssertEqual(coordinatesRead, coordinates, "every coordinate of 1-7 digits on either side")
    }

    /// Positions `[lon, lat]` as most GeoJSON files write them are read by a fast path (spaces
    /// between the tokens, no other white space): it gives the nodes the general path gives.
    /// Each position of one text has a space that the other text has as a tab (so that the
    /// general path reads it, at the same offsets); the values are `Double(text)`'s.
    func testPositionsOfTheFastPathEqualThoseOfTheGeneralPath() throws {
        var rng = SplitMix64(seed: 11)
        let digits = Array("0123456789")
        func number() -> String {
            var t = Bool.random(using: &rng) ? "-" : ""
            t += Int.random(in: 0...3, using: &rng) == 0 ? "0" : String(Int.random(in: 1...180, using: &rng))
            if Int.random(in: 0...9, using: &rng) != 0 {
                t += "."
                for _ in 0..<Int.random(in: 1...([7, 7, 12, 23][Int.random(in: 0...3, using: &rng)]), using: &rng) { t.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            if Int.random(in: 0...19, using: &rng) == 0 { t += "e" + String(Int.random(in: -5...5, using: &rng)) }
            return t
        }
        var fast: [String] = [], general: [String] = [], values: [(String, String)] = []
        for _ in 0..<5_000 {
            let lon = number(), lat = number()
            var gaps = (0..<4).map { _ in String(repeating: " ", count: [0, 0, 0, 1, 2][Int.random(in: 0...4, using: &rng)]) }
            let tabbed = Int.random(in: 0...3, using: &rng)
            if gaps[tabbed].isEmpty { gaps[tabbed] = " " }
            var tabs = gaps
            tabs[tabbed] = "\t" + tabs[tabbed].dropFirst()
            func position(_ g: [String]) -> String { "[" + g[0] + lon + g[1] + "," + g[2] + lat + g[3] + "]" }
            fast.append(position(gaps))
            general.append(position(tabs))
            values.append((lon, lat))
        }
        // Positions inside a ring of a polygon, and one alone as the whole text.
        func document(_ positions: [String]) throws -> JSONDocument {
            try JSONParser(bytes: Array(("{\"coordinates\":[[" + positions.joined(separator: ",") + "]]}").utf8)).document()
        }
        let a = try document(fast), b = try document(general)
        defer { withExtendedLifetime((a, b)) {} }
        XCTAssertEqual(a.tape.nodes.count, b.tape.nodes.count)
        for (x, y) in zip(a.tape.nodes, b.tape.nodes) {
            XCTAssertEqual(x.kind, y.kind)
            XCTAssertEqual(x.offset, y.offset)
            XCTAssertEqual(x.number.bitPattern, y.number.bitPattern)
            XCTAssertEqual(x.packed, y.packed)
        }
        let ring = 3
        XCTAssertEqual(a.tape.nodes[ring].kind, .array)
        var k = ring + 1
        for (n, (lon, lat)) in values.enumerated() {
            let got = try XCTUnwrap(a.tape.position(k), "\(n)")
            XCTAssertEqual(got.lon.bitPattern, try XCTUnwrap(Double(lon)).bitPattern, fast[n])
            XCTAssertEqual(got.lat.bitPattern, try XCTUnwrap(Double(lat)).bitPattern, fast[n])
            k = a.tape.next(k)
        }
        for text in ["[1,2]", "[-121.7853645,37.5737659]", "[ 0 , -0 ]", "[1.25, 2.5]"] {
            let doc = try JSONParser(bytes: Array(text.utf8)).document()
            withExtendedLifetime(doc) { XCTAssertEqual(doc.tape.nodes.map(\.kind), [.position], text) }
        }
    }

    /// What the position fast path does not read is read (or rejected) by the general path as
    /// before: errors at the same place, positions nested at the limit, arrays that only start
    /// like a position.
    func testTextsThatStartLikeAPositionAreReadAsBefore() throws {
        for (bad, column, message) in [("[1,2", 5, "the JSON text ends inside an array: add the closing ']'"),
                                       ("[1,2,]", 6, "unexpected text: a JSON value is an object, array, string, number, true, false or null"),
                                       ("[[1.,2]]", 5, "a number needs digits after the decimal point"),
                                       ("[[1,2e]]", 7, "a number needs digits in its exponent"),
                                       ("[[01,2]]", 4, "expected ',' or ']' in an array"),
                                       ("[[1 2]]", 5, "expected ',' or ']' in an array"),
                                       ("[[1,-]]", 6, "unexpected text: a JSON value is an object, array, string, number, true, false or null"),
                                       ("[[1,1e999]]", 10, "a number is too large (beyond 1.8e308)")] {
            var p = JSONParser(bytes: Array(bad.utf8))
            XCTAssertThrowsError(try p.parse(), bad) {
                XCTAssertEqual(($0 as? YAMLProblem)?.message, message, bad)
                XCTAssertEqual(($0 as? YAMLProblem)?.mark, SourceMark(line: 1, column: column), bad)
            }
        }
        let deep = String(repeating: "[", count: 63) + "[1,2]" + String(repeating: "]", count: 63)
        let deepDocument = try JSONParser(bytes: Array(deep.utf8)).document()
        withExtendedLifetime(deepDocument) { XCTAssertEqual(deepDocument.tape.nodes.last?.kind, .position) }
        var tooDeep = JSONParser(bytes: Array((String(repeating: "[", count: 64) + "[1,2]" + String(repeating: "]", count: 64)).utf8))
        XCTAssertThrowsError(try tooDeep.parse()) {
            XCTAssertEqual(($0 as? YAMLProblem)?.message, "the JSON is nested more than 64 levels deep")
            XCTAssertEqual(($0 as? YAMLProblem)?.mark, SourceMark(line: 1, column: 65))
        }
        for (text, kinds) in [("[1,2,3]", [JSONTape.Kind.array, .number, .number, .number]), ("[1e2,2]", [.position]),
                              ("[\n1,\n2\n]", [.position]), ("[[1,2],[3]]", [.array, .position, .array, .number]),
                              ("[1,\"a\"]", [.array, .number, .asciiString])] {
            let doc = try JSONParser(bytes: Array(text.utf8)).document()
            withExtendedLifetime(doc) { XCTAssertEqual(doc.tape.nodes.map(\.kind), kinds, text) }
        }
        var parser = JSONParser(bytes: Array("[[1,\n2],\n [3, 4]]".utf8))
        let lines = try parser.parse()
        XCTAssertEqual(lines.array?.map(\.mark), [SourceMark(line: 1, column: 2), SourceMark(line: 3, column: 2)])
    }

    /// Numbers read up to 8 digits at a time while 8 bytes remain, one by one near the end of
    /// the text: a number alone as the whole document, followed by 0 to 9 spaces, with 1 to 30
    /// digits split at every place by the decimal point, reads as `Double(text)`.
    func testNumbersAtTheEndOfTheTextEqualDoubleOfTheirText() throws {
        let digits = Array("73948261057392846105739284610573")
        for count in 1...30 {
            for point in 0..<count {
                let whole = String(digits[0..<max(1, point)]), fraction = String(digits[max(1, point)..<max(count, max(1, point))])
                let literal = fraction.isEmpty ? whole : whole + "." + fraction
                for spaces in 0...9 {
                    var parser = JSONParser(bytes: Array((literal + String(repeating: " ", count: spaces)).utf8))
                    let got = try XCTUnwrap(try parser.parse().number, literal)
                    XCTAssertEqual(got.bitPattern, try XCTUnwrap(Double(literal)).bitPattern, "\(literal) + \(spaces) spaces")
                }
            }
        }
    }
}
