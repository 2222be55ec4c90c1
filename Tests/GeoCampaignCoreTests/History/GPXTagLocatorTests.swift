import XCTest
@testable import GeoCampaignCore

/// Where start tags begin, past everything that may hold a `<` that is not one.
final class GPXTagLocatorTests: XCTestCase {
    func places(_ text: String) -> [GPXTagLocator.Place] {
        var locator = GPXTagLocator(bytes: Array(text.utf8))
        var out: [GPXTagLocator.Place] = []
        var k = 0
        while let p = locator.place(ofTag: k) { out.append(p); k += 1 }
        return out
    }

    func testStartTagsPastCommentsCDATAProcessingInstructionsAndTheDocumentType() {
        let text = """
        <?xml version="1.0"?><!DOCTYPE g [ <!ENTITY e "<x>]>"> <!-- <y> --> <?p <z>?> ]>
        <g a=">"><!-- <no> --><![CDATA[<no>]]><?pi <no>?></no-end>
          <é/><b
        c='<'/>
        </g>
        """
        let ps = places(text)
        XCTAssertEqual(ps.map(\.line), [2, 3, 3])
        XCTAssertEqual(ps.map(\.column), [1, 3, 7])
        XCTAssertEqual(ps.map { Array(text.utf8)[$0.offset] }, [60, 60, 60])
    }

    func testAskingAgainForTheLastTagGivesItAgain() {
        var locator = GPXTagLocator(bytes: Array("<a><b/></a>".utf8))
        XCTAssertEqual(locator.place(ofTag: 1)?.offset, 3)
        XCTAssertEqual(locator.place(ofTag: 1)?.offset, 3)
        XCTAssertNil(locator.place(ofTag: 2))
    }

    func testExcerpts() {
        let short = "x\r\n<a/>\r\n"
        var l = GPXTagLocator(bytes: Array(short.utf8))
        XCTAssertEqual(l.place(ofTag: 0).map(l.excerpt), Array("<a/>".utf8))
        let long = String(repeating: " ", count: 2_000) + "<a/>" + String(repeating: "y", count: 2_000) + "\n<b/>"
        var m = GPXTagLocator(bytes: Array(long.utf8))
        let a = m.place(ofTag: 0).map(m.excerpt) ?? []
        XCTAssertEqual(a.count, 1024)
        XCTAssertEqual(Array(a.prefix(4)), Array("<a/>".utf8))
        XCTAssertEqual(m.place(ofTag: 1).map(m.excerpt), Array("<b/>".utf8))
    }
}
