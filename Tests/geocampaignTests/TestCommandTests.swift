import Foundation
import XCTest

/// `geocampaign test`: the bundled campaign tests pass; a wrong expectation fails with a readable
/// side-by-side diff (golden); broken test files exit 65 with file:line:column (golden); every
/// expectation kind and history notation passes where it should and fails where it should.
final class TestCommandTests: XCTestCase {
    private let data = "Tests/Data/CampaignTests"

    private func golden(_ name: String) throws -> String {
        try String(contentsOf: BinaryRunner.root.appendingPathComponent("\(data)/expected/\(name)"), encoding: .utf8)
    }

    func testBundledCampaignTestsPass() throws {
        let r = try BinaryRunner.run(["test", "campaigns/tests"])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains("FAIL"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("\n3 files, 13 cases: 13 passed, 0 failed\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  ok    Leo is in the holdout, so his thank-you is held out\n"), r.stdout)
    }

    func testABrokenExpectationFailsWithASideBySideDiffAndTheRulesExplanation() throws {
        let r = try BinaryRunner.run(["test", "\(data)/broken-expectation.yaml"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, try golden("broken-expectation.out"))
        XCTAssertTrue(r.stdout.contains("expected                                                 | actual\n"), r.stdout)
    }

    func testBrokenTestFilesExit65WithFileLineAndColumn() throws {
        for name in ["broken-file", "broken-names"] {
            let r = try BinaryRunner.run(["test", "\(data)/\(name).yaml"])
            XCTAssertEqual(r.status, 65, name)
            XCTAssertEqual(r.stdout, try golden("\(name).out"), name)
        }
        let r = try BinaryRunner.run(["test", "\(data)/broken-file.yaml"])
        XCTAssertTrue(r.stdout.contains("broken-file.yaml:8:5: error: unknown key 'expext' in a case: did you mean 'expect'?\n"), r.stdout)
    }

    func testABrokenFileWinsOverAFailure() throws {
        let r = try BinaryRunner.run(["test", "\(data)/broken-expectation.yaml", "\(data)/broken-names.yaml"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stdout.hasSuffix("2 files, 1 case: 0 passed, 1 failed, 1 broken file\n"), r.stdout)
    }

    func testEveryExpectationKindAndNotationPasses() throws {
        let r = try BinaryRunner.run(["test", "\(data)/every-kind.yaml"])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("1 file, 5 cases: 5 passed, 0 failed\n"), r.stdout)
    }

    func testEveryExpectationKindCanFail() throws {
        let r = try BinaryRunner.run(["test", "\(data)/every-kind-fails.yaml"])
        XCTAssertEqual(r.status, 1)
        let failed = r.stdout.components(separatedBy: "\n  FAIL  ").count - 1
        XCTAssertEqual(failed, 12, r.stdout)
        XCTAssertFalse(r.stdout.contains("  ok  "), r.stdout)
        XCTAssertTrue(r.stdout.contains("visit: ada visits fountain at 2012-12-14 10:01 | fountain entered 2012-12-14 10:00 CET, still inside (15m)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("no ice-cream decision for nobody (no fix of this user in the history)"), r.stdout)
    }

    func testJUnitReportNamesEveryCaseAndFailure() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try BinaryRunner.run(["test", "\(data)/broken-expectation.yaml", "\(data)/every-kind.yaml", "\(data)/broken-names.yaml",
                                      "--junit", out.path])
        XCTAssertEqual(r.status, 65)
        let xml = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"geocampaign test\" tests=\"7\" failures=\"1\" errors=\"1\""), xml)
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 7)
        XCTAssertEqual(xml.components(separatedBy: "<failure message=").count - 1, 1)
        XCTAssertTrue(xml.contains("<failure message=\"decision: thank-you delivered to leo at 2026-11-17 19:37\">"), xml)
        XCTAssertTrue(xml.contains("<error message=\"no region 'fountian' in the campaigns of this test file: did you mean 'fountain'?\">"), xml)
        XCTAssertTrue(xml.hasSuffix("</testsuites>\n"))
    }

    func testDefaultFolderIsTestsAndMissingPathsExit66() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tests/sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try String(contentsOf: BinaryRunner.root.appendingPathComponent("\(data)/every-kind.yaml"), encoding: .utf8)
        let fixed = source.replacingOccurrences(of: "campaigns: [campaigns]", with: "campaigns: [\(BinaryRunner.root.path)/\(data)/campaigns]")
            .replacingOccurrences(of: "file: ../Explain/history.jsonl", with: "file: \(BinaryRunner.root.path)/Tests/Data/Explain/history.jsonl")
            .replacingOccurrences(of: "path: park.gpx", with: "path: \(BinaryRunner.root.path)/\(data)/park.gpx")
        try fixed.write(to: dir.appendingPathComponent("tests/sub/kinds.yml"), atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run(["test"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix("tests/sub/kinds.yml\n"), r.stdout)
        let missing = try BinaryRunner.run(["test", "no-such-tests"], cwd: dir)
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "no-such-tests: error: no such test file or folder: check the path\n")
    }

    func testTimesFollowTz() throws {
        let r = try BinaryRunner.run(["test", "\(data)/broken-expectation.yaml", "--tz", "Europe/Zurich"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("| 2026-11-18 04:37 CET lorrenzillos/thank-you held_out"), r.stdout)
        let bad = try BinaryRunner.run(["test", "--tz", "Mars/Olympus"])
        XCTAssertEqual(bad.status, 64)
    }
}
