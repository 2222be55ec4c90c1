import XCTest
@testable import GeoCampaignCore

/// A parse that streams the root object's `features` array (`JSONParser.ItemStream`) hands its
/// sinks exactly the items a parse without a stream puts in that array, in order and with the
/// same nodes, numbers and places, in one pass or in parts on several threads; it leaves every
/// other node as it was, streams only the root's first member of that name and only an array,
/// and fails with the same error as a parse without a stream.
final class JSONStreamParseTests: XCTestCase {
    /// Records each item as text: its subtree's nodes (kind, offset, packed fields with `next`
    /// made relative to the item, numbers' bits), numbered as the sink was told.
    private final class RecordingSink: JSONItemSink {
        var items: [String] = []

        func take(_ item: JSONTape.Value, _ k: Int) {
            items.append("\(k): " + JSONStreamParseTests.subtree(item.tape, item.index))
        }

        func append(_ later: any JSONItemSink, first: Int) {
            guard let later = later as? RecordingSink else { return XCTFail("a sink of another type") }
            // Renumbered from `first`, as a sink of decoded features renumbers them.
            for line in later.items {
                let colon = line.firstIndex(of: ":").map { line.distance(from: line.startIndex, to: $0) } ?? 0
                let k = Int(line.prefix(colon)) ?? -1
                items.append("\(k + first)" + line.dropFirst(colon))
            }
            later.items = []
        }
    }

    /// The nodes of the subtree of node `k`, `next` relative to `k`.
    static func subtree(_ tape: JSONTape, _ k: Int) -> String {
        var out = ""
        for j in k..<tape.next(k) {
            let n = tape.nodes[j]
            let packed = n.kind == .position ? n.packed : (n.packed & 0xFFFF_FFFF) | UInt64(Int(n.packed >> 32) - k) << 32
            out += "\(n.kind.rawValue),\(n.offset),\(packed),\(n.number.bitPattern);"
        }
        return out
    }

    /// The streamed parse: its items and the document's nodes as text, or the error.
    private func streamed(_ text: String, parts: Int, member: String = "features") -> (items: [String], rest: String, streamed: JSONDocument.Streamed?) {
        let sink = RecordingSink()
        let stream = JSONParser.ItemStream(member: member, sink: sink, makeSink: { RecordingSink() })
        do {
            let doc = try JSONParser(bytes: Array(text.utf8)).document(parts: parts, stream: stream)
            return (sink.items, Self.subtree(doc.tape, 0), doc.streamed)
        } catch {
            return ([], "error \(error.mark.line):\(error.mark.column): \(error.message)", nil)
        }
    }

    /// What a parse without a stream gives: the items of the root's `member` array (numbered
    /// from 0), and the nodes of the document with that array's items left out (its node then
    /// has no items), as the streamed parse leaves them; or the error.
    private func expected(_ text: String, member: String = "features") -> (items: [String], rest: String, count: Int?) {
        do {
            let doc = try JSONParser(bytes: Array(text.utf8)).document(parts: 1)
            let root = JSONNode(document: doc, index: 0)
            let tape = doc.tape
            guard let list = root[member], tape.nodes[list.index].kind == .array else { return ([], Self.subtree(tape, 0), nil) }
            var items: [String] = []
            var k = list.index + 1
            for i in 0..<tape.nodes[list.index].size {
                items.append("\(i): " + Self.subtree(tape, k))
                k = tape.next(k)
            }
            // The document without the array's items: the nodes before it, the array's node with
            // no items, and the nodes after its subtree moved down.
            let a = list.index, end = tape.next(a), removed = end - a - 1
            var rest = ""
            for j in 0..<tape.nodes.count where j <= a || j >= end {
                var n = tape.nodes[j]
                if n.kind != .position {
                    var next = Int(n.packed >> 32)
                    if j == a {
                        n.close(size: 0, next: a + 1)
                        next = a + 1
                    } else if next > a {
                        next -= removed
                    }
                    n.close(size: Int(UInt32(truncatingIfNeeded: n.packed)), next: next)
                }
                rest += "\(n.kind.rawValue),\(n.offset),\(n.packed),\(n.number.bitPattern);"
            }
            return (items, rest, tape.nodes[list.index].size)
        } catch {
            return ([], "error \(error.mark.line):\(error.mark.column): \(error.message)", nil)
        }
    }

    private func assertStreamsAsParsed(_ text: String, _ what: String, member: String = "features", file: StaticString = #filePath, line: UInt = #line) {
        let want = expected(text, member: member)
        for parts in [1, 2, 3, 5] {
            var got = streamed(text, parts: parts, member: member)
            // Without a streamed array, what the sinks took is dropped (an array of two numbers
            // is a position, and its numbers were taken as items).
            if got.streamed == nil { got.items = [] }
            XCTAssertEqual(got.rest, want.rest, "\(what), \(parts) parts: the document", file: file, line: line)
            XCTAssertEqual(got.streamed?.items, want.count, "\(what), \(parts) parts: the item count", file: file, line: line)
            if got.items != want.items {
                let k = (0..<min(got.items.count, want.items.count)).first { got.items[$0] != want.items[$0] } ?? min(got.items.count, want.items.count)
                XCTFail("\(what), \(parts) parts: \(got.items.count) items against \(want.items.count), item \(k) differs", file: file, line: line)
            }
        }
    }

    /// A FeatureCollection of `n` features, one per line (as in `JSONParallelParseTests`).
    private func collection(_ n: Int, head: String = #""type":"FeatureCollection","features":"#,
                            feature: (Int) -> String? = { _ in nil }) -> String {
        var rng = SplitMix64(seed: 78)
        let lines = (1...n).map { i -> String in
            if let f = feature(i) { return f }
            let x = Double(Int(rng.next() % 1_000_000)) / 1e5, y = Double(Int(rng.next() % 1_000_000)) / 1e5
            let ring = (0..<(3 + i % 9)).map { k in "[\(x + Double(k) * 0.001),\(y - Double(k % 2) * 0.002)]" }.joined(separator: ",")
            let extra = i % 5 == 0 ? #","list":[{},{"a":[]},[1,[2,3,4]],-1.5e-3,true,false,null,"x\"},{y\u00e9"],"features":[1]"# : ""
            return #"{"type":"Feature","id":\#(i),"properties":{"name":"n \#(i)"\#(extra)},"geometry":{"type":"Polygon","coordinates":[[\#(ring),[\#(x),\#(y),12.5]]]}}"#
        }
        return "{" + head + "[\n" + lines.joined(separator: ",\n") + "\n],\"name\":\"end\"}\n"
    }

    func testStreamedItemsAreTheArraysItems() {
        let text = collection(3_000)
        XCTAssertEqual(expected(text).count, 3_000)
        assertStreamsAsParsed(text, "GeoJSON")
        assertStreamsAsParsed("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"), "BOM and CRLF")
        assertStreamsAsParsed(text.replacingOccurrences(of: "\n", with: ""), "one line")
        // Guesses of the parts' starts inside strings and nested arrays of objects.
        assertStreamsAsParsed(collection(2_000) { i in
            if i % 3 == 0 { return #"{"s":"\#(String(repeating: "},{", count: 40))"}"# }
            if i % 3 == 1 { return #"{"p":[\#((0..<30).map { _ in #"{"q":1}"# }.joined(separator: ",\n"))]}"# }
            return nil
        }, "guesses in strings and nested arrays")
        // Items that are not objects, and an array of them after the streamed one.
        assertStreamsAsParsed(collection(2_000) { i in i % 7 == 0 ? ["1", "[1,2]", "[[1,2]]", "\"s\"", "null", "[]", "{}"][i % 5] : nil }, "other items")
    }

    func testOnlyTheRootsFirstMemberOfThatNameIsStreamed() {
        // Written with an escape, the name is the same; the second member of that name and the
        // members named so inside features are not streamed.
        assertStreamsAsParsed(collection(2_500, head: #""type":"FeatureCollection","feat\u0075res":"#), "escaped name")
        assertStreamsAsParsed(collection(2_500, head: #""type":"FeatureCollection","features":[{"a":1}],"features":"#), "repeated name")
        // The first member of that name is not an array: nothing is streamed.
        for first in [#""x""#, "{}", "[1,2]", "[1 ,\n2]", "null"] {
            let text = collection(2_500, head: #""features":\#(first),"features":"#)
            XCTAssertNil(streamed(text, parts: 2).streamed, first)
            assertStreamsAsParsed(text, "first member \(first)")
        }
        // Another name, and a root that is not an object.
        assertStreamsAsParsed(collection(2_000), "another name", member: "list")
        let array = "[" + collection(1_000) + "," + collection(1_000) + "]"
        XCTAssertNil(streamed(array, parts: 2).streamed)
        assertStreamsAsParsed(array, "a root array")
        assertStreamsAsParsed(#"{"features":[]}"#, "no items")
        assertStreamsAsParsed(#"{"features":[ ]}"#, "no items, a space")
    }

    func testErrorsAreThoseOfAParseWithoutAStream() {
        for (k, bad) in [#"{"a":[1,2,]}"#, #"{"a":"\x"}"#, #"{"a":01}"#, #"{"a" 1}"#, "{\"a\":\"\n\"}", "[1,2", "{"].enumerated() {
            let text = collection(2_500) { i in i == 1_900 + k * 90 ? bad : nil }
            XCTAssertTrue(expected(text).rest.hasPrefix("error"), bad)
            assertStreamsAsParsed(text, "error \(bad)")
        }
        assertStreamsAsParsed(String(collection(2_000).dropLast(40)), "truncated")
        let deep = collection(2_000) { i in i == 1_500 ? #"{"d":"# + String(repeating: "[", count: 61) + String(repeating: "]", count: 61) + "}" : nil }
        XCTAssertFalse(expected(deep).rest.hasPrefix("error"), "depth 63 parses")
        assertStreamsAsParsed(deep, "depth 63")
        let tooDeep = collection(2_000) { i in i == 1_500 ? #"{"d":"# + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}" : nil }
        XCTAssertTrue(expected(tooDeep).rest.hasPrefix("error"), "depth 64 is an error")
        assertStreamsAsParsed(tooDeep, "depth 64")
    }
}
