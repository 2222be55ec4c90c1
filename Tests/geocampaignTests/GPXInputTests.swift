import Foundation
import XCTest

/// GPX histories through the real binary (issue 10 items 1 and 4): a bad file is exit 65 with
/// `path:line:col` and no signal; odd but valid XML is read; rejects are bounded.
final class GPXInputTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpx-e2e-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static let head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"t\">\n".utf8)
    static let point = Array("<trkpt lat=\"37.7\" lon=\"-121.7\"><time>2026-11-29T10:00:00Z</time></trkpt>\n".utf8)

    /// Crashed with SIGILL before (a byte that is not UTF-8 in a comment).
    func testABadByteIsExit65WithPathLineAndColumn() throws {
        let path = try file("bad.gpx", Self.head + Self.point + Array("<!-- ".utf8) + [0xFF] + Array(" -->\n</gpx>\n".utf8))
        let r = try BinaryRunner.run(["events", "--history", path, "--quiet"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path):4:6: error: malformed GPX: invalid character"), r.stderr)
        XCTAssertEqual(r.stdout, "")
    }

    /// Crashed with SIGSEGV before (`<?garmin?>`); was exit 65 before (`xmlns="GPX-1.1"`).
    func testValidOddFilesAreRead() throws {
        let cases: [(String, [UInt8])] = [
            ("pi.gpx", Self.head + Array("<?garmin?>\n".utf8) + Self.point + Array("</gpx>\n".utf8)),
            ("ns.gpx", Array("<?xml version=\"1.0\"?>\n<gpx xmlns=\"GPX-1.1\">\n".utf8) + Self.point + Array("</gpx>\n".utf8)),
        ]
        for (name, bytes) in cases {
            let r = try BinaryRunner.run(["events", "--history", try file(name, bytes)])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("fixes accepted: 1"), "\(name): \(r.stderr)")
        }
    }

    /// 3,000 rejected points on one line: each reject's text is at most 1 KiB and starts at its
    /// own point (before: the whole line, copied per reject).
    func testRejectsOfALongLineAreBounded() throws {
        var line = ""
        for k in 0..<3_000 { line += "<wpt lat=\"95\" lon=\"\(k)\"/>" }
        // One good point after the line: a history of which no point is accepted is an error.
        let path = try file("long.gpx", Self.head + Array(line.utf8) + Array("\n<wpt lat=\"37.7\" lon=\"-121.7\"/>\n</gpx>\n".utf8))
        let rejects = folder.appendingPathComponent("rejects.jsonl")
        let r = try BinaryRunner.run(["events", "--history", path, "--rejects", rejects.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try String(contentsOf: rejects, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3_000)
        for (k, l) in lines.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any]
            let text = object?["text"] as? String ?? ""
            XCTAssertEqual(object?["line"] as? Int, 3)
            XCTAssertLessThanOrEqual(text.utf8.count, 1024)
            XCTAssertTrue(text.hasPrefix("<wpt lat=\"95\" lon=\"\(k)\"/>"), "\(k): \(text.prefix(40))")
        }
    }
}
