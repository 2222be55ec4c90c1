import Foundation
import XCTest
@testable import GeoCampaignCore

/// GPX files an audit found to crash, hang or misread the Foundation-based reader (issue 10,
/// items 1 and 4). Each case failed (signal, wrong value or unbounded text) before the reader
/// moved to libxml2's xmlReader.
final class GPXReaderHostileInputTests: XCTestCase {
    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"t\">\n"
    static let point = "<trkpt lat=\"47.1\" lon=\"8.5\"><time>2026-11-29T10:00:00Z</time></trkpt>\n"

    func parse(_ bytes: [UInt8], path: String = "t.gpx") throws -> GPXReader.Result {
        try GPXReader.parse(bytes: bytes, path: path)
    }

    func parse(_ text: String) throws -> GPXReader.Result { try parse(Array(text.utf8)) }

    /// A fix as comparable values (a fix's NaN accuracy is never equal to itself).
    struct Point: Equatable {
        var time: Int64
        var lat: Double
        var lon: Double
    }

    func fixes(_ r: GPXReader.Result) -> [Point] {
        r.items.compactMap { if case .fix(let f) = $0 { return Point(time: f.time, lat: f.lat, lon: f.lon) } else { return nil } }
    }

    func rejects(_ r: GPXReader.Result) -> [RejectedLine] {
        r.items.compactMap { if case .rejected(let x) = $0 { return x } else { return nil } }
    }

    /// A byte that is not UTF-8 in a comment, an element name, an attribute name or a PI target:
    /// a signal before; now an error at its line.
    func testBytesThatAreNotUTF8AreAnErrorAtTheirLine() {
        let cases: [(String, [UInt8], [UInt8], UInt)] = [
            ("comment", Array("<!-- ".utf8), Array(" -->\n".utf8), #line),
            ("element name", Array("<na".utf8), Array("me/>\n".utf8), #line),
            ("attribute name", Array("<name a".utf8), Array("b=\"1\"/>\n".utf8), #line),
            ("PI target", Array("<?pi".utf8), Array(" data?>\n".utf8), #line),
        ]
        for (what, before, after, at) in cases {
            for bad: UInt8 in [0xFF, 0xC3, 0x80] {
                let bytes = Array(Self.head.utf8) + Array(Self.point.utf8) + before + [bad] + after + Array("</gpx>\n".utf8)
                XCTAssertThrowsError(try parse(bytes), what, line: at) { error in
                    guard case HistoryError.malformedGPX(let path, let line, let column, let message) = error else {
                        return XCTFail("\(what): \(error)", line: at)
                    }
                    XCTAssertEqual(path, "t.gpx", line: at)
                    XCTAssertEqual(line, 4, "\(what) \(bad): \(message)", line: at)
                    XCTAssertGreaterThan(column, 0, line: at)
                    XCTAssertTrue("\(error)".hasPrefix("t.gpx:4:\(column): error: malformed GPX: "), "\(error)", line: at)
                    XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)", line: at)
                }
            }
        }
    }

    /// Valid XML that the old reader crashed on or refused: a PI without data, a relative
    /// namespace URI, an undeclared prefix, an external entity in a sibling of `<time>`, CDATA.
    func testValidOddFilesAreRead() throws {
        let cases: [(String, String, UInt)] = [
            ("PI without data", "<?garmin?>\n" + Self.point, #line),
            ("PI in a point", "<trkpt lat=\"47.1\" lon=\"8.5\"><?garmin?><time>2026-11-29T10:00:00Z</time></trkpt>\n", #line),
            ("CDATA time", "<trkpt lat=\"47.1\" lon=\"8.5\"><time><![CDATA[2026-11-29T10:00:00Z]]></time></trkpt>\n", #line),
            ("comment in time", "<trkpt lat=\"47.1\" lon=\"8.5\"><time>2026-11-29<!-- x -->T10:00:00Z</time></trkpt>\n", #line),
        ]
        for (what, body, at) in cases {
            let r = try parse(Self.head + body + "</gpx>\n")
            XCTAssertEqual(fixes(r), [Point(time: 1_795_946_400_000, lat: 47.1, lon: 8.5)], what, line: at)
        }
        let relativeNamespace = "<?xml version=\"1.0\"?>\n<gpx xmlns=\"GPX-1.1\" version=\"1.1\">\n" + Self.point + "</gpx>\n"
        XCTAssertEqual(fixes(try parse(relativeNamespace)).count, 1)
        let undeclaredPrefix = "<gpx:gpx>\n<gpx:trkpt lat=\"47.1\" lon=\"8.5\"><gpx:time>2026-11-29T10:00:00Z</gpx:time></gpx:trkpt>\n</gpx:gpx>\n"
        XCTAssertEqual(fixes(try parse(undeclaredPrefix)).count, 1)
    }

    /// An external entity is never loaded: beside `<time>` it changes nothing, inside `<time>`
    /// the point is `bad_timestamp`, and the file it names is not read.
    func testExternalEntitiesAreNotLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("gpx-secret-\(getpid()).txt")
        try Data("2026-11-29T10:00:00Z".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY ext SYSTEM \"\(secret.absoluteString)\"> <!ENTITY net SYSTEM \"http://127.0.0.1:9/x\">]>\n<gpx>\n"
        let sibling = try parse(doctype + "<trkpt lat=\"47.1\" lon=\"8.5\"><name>&ext;&net;</name><time>2026-11-29T10:00:00Z</time></trkpt>\n</gpx>\n")
        XCTAssertEqual(fixes(sibling), [Point(time: 1_795_946_400_000, lat: 47.1, lon: 8.5)])
        let inside = try parse(doctype + "<trkpt lat=\"47.1\" lon=\"8.5\"><time>&ext;</time></trkpt>\n</gpx>\n")
        XCTAssertEqual(fixes(inside), [])
        XCTAssertEqual(rejects(inside).map(\.reason), [.badTimestamp])
        XCTAssertEqual(rejects(inside).map(\.line), [4])
        XCTAssertTrue(rejects(inside)[0].detail.contains("&ext;"), rejects(inside)[0].detail)
        // Internal entities in attributes are XML's own; an entity bomb is refused, not expanded.
        let declared = try parse("<!DOCTYPE gpx [<!ENTITY la \"47.1\">]>\n<gpx><wpt lat=\"&la;\" lon=\"8.5\"/></gpx>\n")
        XCTAssertEqual(fixes(declared).map(\.lat), [47.1])
        var bomb = "<!DOCTYPE gpx [<!ENTITY a0 \"4444444444\">"
        for k in 1...10 { bomb += "<!ENTITY a\(k) \"" + String(repeating: "&a\(k - 1);", count: 10) + "\">" }
        bomb += "]>\n<gpx><wpt lat=\"&a10;\" lon=\"8.5\"/></gpx>\n"
        XCTAssertThrowsError(try parse(bomb)) { error in
            guard case HistoryError.malformedGPX = error else { return XCTFail("\(error)") }
        }
    }

    /// GPX numbers are xsd:decimal: no hex floats, nan, infinity or exponents.
    func testNumbersAreXSDDecimals() throws {
        let bad = ["0x1p3", "0x10", "nan", "NaN", "inf", "infinity", "-Infinity", "1e1", "4.7E1", "", " ", ".", "+", "1.2.3", "4 7", "٤٧", "47,1"]
        for value in bad {
            let r = try parse(Self.head + "<wpt lat=\"\(value)\" lon=\"8.5\"/>\n</gpx>\n")
            XCTAssertEqual(rejects(r).map(\.reason), [.badType], "lat=\"\(value)\"")
            XCTAssertEqual(rejects(r).map(\.line), [3], "lat=\"\(value)\"")
        }
        let good: [(String, Double)] = [("47", 47), ("+47.5", 47.5), ("-.5", -0.5), ("3.", 3), ("-0", 0), ("0047.100", 47.1),
                                        (" \t47.1\n", 47.1), ("90", 90), ("-90.000", -90)]
        for (value, expected) in good {
            let r = try parse(Self.head + "<wpt lat=\"\(value)\" lon=\"8.5\"/>\n</gpx>\n")
            XCTAssertEqual(fixes(r).map(\.lat), [expected], "lat=\"\(value)\"")
        }
        let far = try parse(Self.head + "<wpt lat=\"90.0001\" lon=\"8.5\"/><wpt lat=\"1\" lon=\"-" + String(repeating: "9", count: 5000) + "\"/>\n</gpx>\n")
        XCTAssertEqual(rejects(far).map(\.reason), [.outOfRange, .outOfRange])
        XCTAssertLessThan(rejects(far)[1].detail.utf8.count, 200, "a detail quotes a bounded part of the value")
    }

    /// A point is reported at the line where its start tag begins, whatever comes before it.
    func testAPointIsReportedAtTheLineOfItsStartTag() throws {
        let text = Self.head + """
        <!-- <trkpt lat="1" lon="1"/> in a comment
        --><?pi <trkpt?><trk><name><![CDATA[<trkpt lat="2">
        ]]></name><trkseg>
        <trkpt
            lat="95" a='>' b=">
        "
            lon="8.5"><time>2026-11-29T10:00:00Z</time></trkpt><trkpt lat="1" lon="2"/>
        </trkseg></trk>
        </gpx>

        """
        let r = try parse(text)
        XCTAssertEqual(rejects(r).map(\.line), [6, 9])
        XCTAssertEqual(rejects(r).map(\.reason), [.outOfRange, .badTimestamp])
        XCTAssertEqual(String(decoding: rejects(r)[0].text, as: UTF8.self), "<trkpt")
        XCTAssertEqual(String(decoding: rejects(r)[1].text, as: UTF8.self),
                       #"    lon="8.5"><time>2026-11-29T10:00:00Z</time></trkpt><trkpt lat="1" lon="2"/>"#)
        // A document type with an internal subset, and a byte order mark on line 1.
        let dtd = [0xEF, 0xBB, 0xBF] + Array("<!DOCTYPE gpx [ <!ENTITY x \"<trkpt>\"> <!-- ]> --> <?p ]>?> ]><gpx><wpt lat=\"x\" lon=\"1\"/></gpx>".utf8)
        let d = try parse(dtd)
        XCTAssertEqual(rejects(d).map(\.line), [1])
        XCTAssertEqual(rejects(d)[0].text, Array(dtd.dropFirst(3)))
    }

    /// The root must be `<gpx>`: the error names where the root starts.
    func testARootThatIsNotGPXIsAnErrorAtItsStartTag() {
        XCTAssertThrowsError(try parse("<?xml version=\"1.0\"?>\n<!-- a KML file -->\n  <kml><Placemark/></kml>\n")) { error in
            XCTAssertEqual("\(error)", "t.gpx:3:3: error: malformed GPX: root element is <kml>, not <gpx>")
        }
    }

    /// An encoding the declaration names is read; the reject quotes the line's own bytes.
    func testLatin1IsRead() throws {
        let line3 = Array("<wpt lat=\"x\" lon=\"1\"><name>Z".utf8) + [0xFC] + Array("rich</name></wpt><wpt lat=\"47.1\" lon=\"8.5\"/>".utf8)
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx>\n".utf8) + line3 + Array("\n</gpx>\n".utf8)
        let r = try parse(bytes)
        XCTAssertEqual(fixes(r).map(\.lat), [47.1])
        XCTAssertEqual(rejects(r).map(\.line), [3])
        XCTAssertEqual(rejects(r)[0].text, line3)
    }

    /// UTF-16 files are read, and their rejects quote the line in UTF-8.
    func testUTF16IsRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<gpx>\n<wpt lat=\"47.1\" lon=\"8.5\"/>\n<wpt lat=\"x\" lon=\"8.5\"><name>Zürich</name></wpt>\n</gpx>\n"
        for bigEndian in [false, true] {
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for u in text.utf16 { bytes += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
            let r = try parse(bytes)
            XCTAssertEqual(fixes(r).map(\.lat), [47.1])
            XCTAssertEqual(rejects(r).map(\.line), [4])
            XCTAssertEqual(String(decoding: rejects(r)[0].text, as: UTF8.self), "<wpt lat=\"x\" lon=\"8.5\"><name>Zürich</name></wpt>")
        }
    }

    /// Item 4: many rejected points on one long line. Each reject quotes at most 1 KiB, starting
    /// at its own point; before, each copied the whole line found by scanning from the file start
    /// (quadratic time, and memory of rejects times line length).
    func testRejectTextIsBoundedAndStartsAtThePoint() throws {
        let n = 5_000
        var line = ""
        for k in 0..<n { line += "<trkpt lat=\"95\" lon=\"\(k)\"/>" }
        let r = try parse(Self.head + line + "\n</gpx>\n")
        let rs = rejects(r)
        XCTAssertEqual(rs.count, n)
        XCTAssertTrue(rs.allSatisfy { $0.line == 3 && $0.reason == .outOfRange })
        XCTAssertTrue(rs.allSatisfy { $0.text.count <= GPXTagLocator.maxExcerpt })
        XCTAssertEqual(GPXTagLocator.maxExcerpt, 1024)
        for k in [0, 1, 2_500, n - 1] {
            XCTAssertTrue(String(decoding: rs[k].text, as: UTF8.self).hasPrefix("<trkpt lat=\"95\" lon=\"\(k)\"/>"), "\(k)")
        }
        XCTAssertEqual(String(decoding: rs[n - 1].text, as: UTF8.self), "<trkpt lat=\"95\" lon=\"\(n - 1)\"/>")
        // One reject per line, many lines: each line whole, each at its own number.
        let many = (0..<20_000).map { "<wpt lat=\"95\" lon=\"\($0)\"/>" }.joined(separator: "\n")
        let m = rejects(try parse(Self.head + many + "\n</gpx>\n"))
        XCTAssertEqual(m.map(\.line), Array(3..<20_003))
        XCTAssertEqual(String(decoding: m[19_999].text, as: UTF8.self), "<wpt lat=\"95\" lon=\"19999\"/>")
    }

    /// A long line is cut at a whole UTF-8 character.
    func testACutExcerptEndsOnAWholeCharacter() throws {
        let name = String(repeating: "é", count: 2_000)
        let r = try parse(Self.head + "<wpt lat=\"x\" lon=\"1\"><name>\(name)</name></wpt>\n</gpx>\n")
        let text = rejects(r)[0].text
        XCTAssertLessThanOrEqual(text.count, 1024)
        XCTAssertGreaterThanOrEqual(text.count, 1023)
        XCTAssertNotNil(String(validatingUTF8: text.map { CChar(bitPattern: $0) } + [0]), "valid UTF-8")
    }
}
