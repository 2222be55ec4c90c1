import XCTest
@testable import GeoCampaignCore

/// Parsing a text in parts on several threads (parts guessed at `},{` and taken over only when
/// the one pass reaches them at an item start) builds exactly the nodes, marks and errors of one
/// pass: on GeoJSON-like texts, on texts whose guesses land inside strings or nested arrays, at
/// the nesting limit, with errors in later parts, and when a part's node room runs out.
final class JSONParallelParseTests: XCTestCase {
    /// Everything a document holds, as text: every node's fields and the marks of some nodes;
    /// or the error.
    private func dump(_ text: String, parts: Int) -> String {
        do {
            let doc = try JSONParser(bytes: Array(text.utf8)).document(parts: parts)
            let nodes = doc.tape.nodes
            var out = "\(nodes.count) nodes\n"
            for (k, n) in nodes.enumerated() {
                out += "\(n.kind.rawValue) \(n.offset) \(n.packed) \(n.number.bitPattern)"
                if k % 7 == 0 || k == nodes.count - 1 { out += " @\(doc.mark(atOffset: Int(n.offset)))" }
                out += "\n"
            }
            return out
        } catch {
            return "error \(error.mark.line):\(error.mark.column): \(error.message)"
        }
    }

    private func assertSameInParts(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let one = dump(text, parts: 1)
        for parts in [2, 3, 5] {
            let got = dump(text, parts: parts)
            if got != one {
                let a = one.split(separator: "\n"), b = got.split(separator: "\n")
                let k = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                XCTFail("\(what), \(parts) parts: line \(k) differs: \(k < a.count ? a[k] : "-") against \(k < b.count ? b[k] : "-")", file: file, line: line)
            }
        }
    }

    /// A FeatureCollection of `n` features, one per line, with some of every kind of value.
    private func collection(_ n: Int, feature: (Int) -> String? = { _ in nil }) -> String {
        var rng = SplitMix64(seed: 77)
        let lines = (1...n).map { i -> String in
            if let f = feature(i) { return f }
            let x = Double(Int(rng.next() % 1_000_000)) / 1e5, y = Double(Int(rng.next() % 1_000_000)) / 1e5
            let ring = (0..<(3 + i % 9)).map { k in "[\(x + Double(k) * 0.001),\(y - Double(k % 2) * 0.002)]" }.joined(separator: ",")
            let extra = i % 5 == 0 ? #","list":[{},{"a":[]},[1,[2,3,4]],-1.5e-3,true,false,null,"x\"},{y\u00e9"]"# : ""
            return #"{"type":"Feature","id":\#(i),"properties":{"name":"n \#(i)"\#(extra)},"geometry":{"type":"Polygon","coordinates":[[\#(ring),[\#(x),\#(y),12.5]]]}}"#
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + lines.joined(separator: ",\n") + "\n],\"name\":\"end\"}\n"
    }

    func testGeoJSONInPartsEqualsOnePass() {
        let text = collection(3_000)
        XCTAssertFalse(dump(text, parts: 1).hasPrefix("error"), "it parses")
        assertSameInParts(text, "GeoJSON")
        assertSameInParts("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"), "BOM and CRLF")
        assertSameInParts(text.replacingOccurrences(of: "\n", with: ""), "one line")
    }

    func testGuessesInsideStringsAndNestedArraysAreDropped() {
        // Every line is a string full of `},{`, or an array of objects nested in a feature.
        let text = collection(2_000) { i in
            if i % 3 == 0 { return #"{"s":"\#(String(repeating: "},{", count: 40))"}"# }
            if i % 3 == 1 { return #"{"p":[\#((0..<30).map { _ in #"{"q":1}"# }.joined(separator: ",\n"))]}"# }
            return nil
        }
        assertSameInParts(text, "guesses in strings and nested arrays")
    }

    func testNestingLimitAndErrorsInLaterPartsAreTheOnePassOnes() {
        // Items of the features array are at depth 2, a member's value at 3; 61 brackets reach
        // depth 63 (allowed), 62 reach 64 (the error).
        let deep = collection(2_000) { i in i == 1_500 ? #"{"d":"# + String(repeating: "[", count: 61) + String(repeating: "]", count: 61) + "}" : nil }
        XCTAssertFalse(dump(deep, parts: 1).hasPrefix("error"), "depth 63 parses")
        assertSameInParts(deep, "depth 63")
        let tooDeep = collection(2_000) { i in i == 1_500 ? #"{"d":"# + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}" : nil }
        XCTAssertTrue(dump(tooDeep, parts: 1).hasPrefix("error"), "depth 64 is an error")
        assertSameInParts(tooDeep, "depth 64")
        for (k, bad) in [#"{"a":[1,2,]}"#, #"{"a":"\x"}"#, #"{"a":01}"#, #"{"a" 1}"#, "{\"a\":\"\n\"}"].enumerated() {
            let text = collection(2_500) { i in i == 1_900 + k * 100 ? bad : nil }
            XCTAssertTrue(dump(text, parts: 1).hasPrefix("error"), bad)
            assertSameInParts(text, "error \(bad)")
        }
        assertSameInParts(String(collection(2_000).dropLast(40)), "truncated")
    }

    func testPartsWhoseNodeRoomRunsOutAreDropped() {
        // Dense values (a node per 2 bytes, where the room is one per 8) early in the text fill
        // the one pass's room; late in the text, a part's.
        let dense = "[" + Array(repeating: "1", count: 60_000).joined(separator: ",") + "]"
        assertSameInParts(collection(2_000) { i in i == 10 ? #"{"n":\#(dense)}"# : nil }, "dense early")
        assertSameInParts(collection(2_000) { i in i == 1_990 ? #"{"n":\#(dense)}"# : nil }, "dense late")
    }

    /// Parts with enough nodes to be moved down in blocks of 65,536 (at least four) give the
    /// nodes of one pass: onto a place they overlap (dense short numbers: one block after
    /// another) and onto one they do not (the bench's long coordinates: blocks on all cores).
    func testLargePartsMovedDownEqualOnePass() throws {
        var rng = SplitMix64(seed: 15)
        let long = (1...30_000).map { i -> String in
            let ring = (0..<16).map { _ in
                "[-12\(Double(rng.next() % 1_000_000_000) / 1e9 + 1),37.\(100_000 + rng.next() % 900_000)]"
            }.joined(separator: ",")
            return #"{"type":"Feature","id":"p-\#(i)","properties":{},"geometry":{"type":"Polygon","coordinates":[[\#(ring)]]}}"#
        }
        let sparse = "{\"type\":\"FeatureCollection\",\"features\":[\n" + long.joined(separator: ",\n") + "\n]}\n"
        for (text, count) in [(collection(40_000), 40_000), (sparse, 30_000)] {
            let one = try JSONParser(bytes: Array(text.utf8)).document(parts: 1)
            let two = try JSONParser(bytes: Array(text.utf8)).document(parts: 2)
            let a = one.tape.nodes, b = two.tape.nodes
            XCTAssertGreaterThan(a.count, 2 * 4 * 65_536, "the second part has at least four blocks")
            XCTAssertEqual(a.count, b.count)
            var differing = 0
            for k in 0..<min(a.count, b.count) {
                let x = a[k], y = b[k]
                if x.kind != y.kind || x.offset != y.offset || x.packed != y.packed || x.number.bitPattern != y.number.bitPattern { differing += 1 }
            }
            XCTAssertEqual(differing, 0)
            XCTAssertEqual(JSONNode(document: two, index: 0)["features"]?.array?.count, count)
        }
    }
}
