import XCTest
@testable import GeoCampaignCore

/// `YAMLParser`: the advice given for each libyaml problem and where, and anchors on both kinds
/// of collection. The expected texts and places are those the parser gave before its advice
/// became tables (every entry of them is here).
final class YAMLParserProblemTests: XCTestCase {
    static let cases: [(yaml: [UInt8], line: Int, column: Int, message: String)] = [
        ("a: @x\n", 1, 4, "a value cannot start with this character: put the value in quotes"),
        ("a:\n\tb: 1\n", 2, 1, "a tab character here: YAML is indented with spaces only, replace the tab with spaces"),
        ("a: |\n\tb\n", 2, 1, "a tab character here: YAML is indented with spaces only, replace the tab with spaces"),
        ("a: \"x\" y\n", 1, 8, "unexpected text after the quoted value: put all of the value inside the quotes"),
        ("a:\n  b: 1\n c: 2\n", 3, 2, "unexpected text here: check its indentation (the keys of one mapping must line up) and that list items start with '- '"),
        ("- a\nb: 1\n", 2, 1, "this line breaks the list above it: start every list item with '- ' at the same indentation"),
        ("a:\n  - 1\n  b: 2\n", 3, 3, "this line breaks the list above it: start every list item with '- ' at the same indentation"),
        ("a: | x\n  y\n", 1, 6, "unexpected text after the value: remove it, or put the whole value in quotes"),
        ("[1]\nx\n", 2, 1, "unexpected text here: every line of a mapping is 'key: value'; check this line and the ones above it for a missing ':' or a wrong indentation"),
        ("a: &\n", 1, 4, "'&' and '*' mark anchors and aliases in YAML: put a value that starts with & or * in quotes"),
        ("a: *\n", 1, 4, "'&' and '*' mark anchors and aliases in YAML: put a value that starts with & or * in quotes"),
        ("a: [1,,2]\n", 1, 7, "a value is missing here: check for a doubled comma, a stray character, or a value that needs quotes"),
        ("a: - b\n", 1, 4, "a list item ('- ') cannot start here: put it on its own line, indented under its key"),
        ("a: !x!y 1\n", 1, 4, "'!' starts a YAML tag: put a value that starts with ! in quotes"),
        ("a: &x !y!z 1\n", 1, 4, "'!' starts a YAML tag: put a value that starts with ! in quotes"),
        ("a: b: c\n", 1, 5, "unexpected ':' here: check the indentation of this line, or put the value in quotes if it contains ': '"),
        ("a: [1, 2\n", 1, 4, "this list is never closed: add the closing ']' (and separate items with commas)"),
        ("a: {b: 1\n", 1, 4, "this '{' is never closed: add the closing '}' (and separate entries with commas)"),
        ("a: 'x\n", 1, 4, "this quoted text is never closed: add the closing ' at its end"),
        ("a: \"x\n", 1, 4, "this quoted text is never closed: add the closing \" at its end"),
        ("a: b\nc\n", 2, 1, "a key here has no ':' after it: write 'key: value'"),
        ("%YAML 2.0\n---\na: 1\n", 1, 1, "invalid YAML: found incompatible YAML document"),
        ("%TAG\n", 1, 5, "invalid YAML: did not find expected '!' (while scanning a tag directive started at line 1, column 1)"),
        ("a: !<x\n", 1, 7, "invalid YAML: did not find the expected '>' (while scanning a tag started at line 1, column 4)"),
        ("a: \"\\q\"\n", 1, 5, "invalid YAML: found unknown escape character (while parsing a quoted scalar started at line 1, column 4)"),
        ("--- a\n--- b\n", 2, 1, "a second YAML document starts here: put only one campaign in each file, in a file of its own"),
    ].map { (Array($0.0.utf8), $0.1, $0.2, $0.3) } + [
        (Array("a: ".utf8) + [0xFF, 0x0A], 1, 4, "the file is not valid UTF-8 text here (invalid leading UTF-8 octet): save it as UTF-8"),
    ]

    func testEachProblemHasItsAdviceAtItsPlace() {
        for c in Self.cases {
            let shown = String(decoding: c.yaml, as: UTF8.self)
            do {
                _ = try YAMLParser(bytes: c.yaml).parse()
                XCTFail("no problem for \(shown.debugDescription)")
            } catch {
                XCTAssertEqual(error.message, c.message, shown.debugDescription)
                XCTAssertEqual(error.mark, SourceMark(line: c.line, column: c.column), shown.debugDescription)
            }
        }
    }

    func testAnchorsOnSequencesAndMappings() throws {
        let root = try YAMLParser(bytes: Array("a: &s [1, 2]\nb: *s\nc: &m {x: 1}\nd: *m\n".utf8)).parse()
        let pairs = try XCTUnwrap(root.pairs)
        XCTAssertEqual(pairs.map { $0.key.scalar }, ["a", "b", "c", "d"])
        XCTAssertEqual(pairs[1].value.items?.compactMap(\.scalar), ["1", "2"])
        XCTAssertEqual(pairs[3].value.pairs?.map { $0.key.scalar }, ["x"])
        XCTAssertEqual(pairs[3].value.mark, SourceMark(line: 4, column: 4))
        for (yaml, name) in [("a: &s [*s]\n", "s"), ("a: &m {b: *m}\n", "m")] {
            XCTAssertThrowsError(try YAMLParser(bytes: Array(yaml.utf8)).parse()) { error in
                XCTAssertEqual((error as? YAMLProblem)?.message,
                               "the alias '*\(name)' refers to the node that contains it: an alias cannot repeat its own parent")
            }
        }
    }
}
