import Foundation
import XCTest

/// Issue 10.19 through the binary: `--campaigns` for validate and regions, `regions` without
/// `--geojson`, help examples that run, help and version on a full disk, `error:` once.
final class AdviceCommandTests: XCTestCase {
    func testValidateAndRegionsAcceptCampaignsOption() throws {
        let v = try BinaryRunner.run(["validate", "--campaigns", "campaigns"])
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.stderr.hasPrefix("3 campaigns, 13 regions"), v.stderr)
        let r = try BinaryRunner.run(["regions", "--campaigns", "campaigns/lorrenzillos.yaml", "--campaigns", "campaigns/car-shoppers.yaml"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("{\"type\":\"FeatureCollection\""), r.stdout)
    }

    func testRegionsDefaultsToGeoJSON() throws {
        let plain = try BinaryRunner.run(["regions", "campaigns"])
        let flagged = try BinaryRunner.run(["regions", "campaigns", "--geojson"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, flagged.stdout)
        XCTAssertFalse(plain.stdout.isEmpty)
    }

    /// Every command's help example runs as printed (the explain example named a user that is
    /// not in examples/visits.jsonl).
    func testHelpExamplesRun() throws {
        for command in ["validate", "explain", "regions"] {
            let help = try BinaryRunner.run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            let lines = help.stdout.components(separatedBy: "\n")
            let example = try XCTUnwrap(lines.firstIndex(of: "EXAMPLE:").map { lines[$0 + 1] })
            let words = example.split(separator: " ").map(String.init)
            XCTAssertEqual(words.first, "geocampaign")
            let args = Array(words.dropFirst().prefix { $0 != ">" })
            let r = try BinaryRunner.run(args + (command == "explain" ? ["--quiet"] : []))
            XCTAssertEqual(r.status, 0, "\(example): \(r.stderr)")
            if command == "explain" { XCTAssertTrue(r.stdout.contains("delivered"), r.stdout) }
        }
    }

    /// `--help` and `--version` written to a full disk exited 0.
    func testHelpAndVersionToAFullDeviceFail() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full")
        for args in [["--help"], ["--version"], ["validate", "--help"]] {
            let p = Process()
            p.executableURL = BinaryRunner.binary
            p.arguments = args
            p.standardOutput = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
            let err = Pipe()
            p.standardError = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 1, "\(args)")
            XCTAssertEqual(text, "error: cannot write to standard output: No space left on device\n", "\(args)")
        }
    }

    /// History errors that already say `path: error:` were printed after another `error: `.
    func testErrorIsPrintedOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-advice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("<gpx><trk>".utf8).write(to: dir.appendingPathComponent("bad.gpx"))
        let r = try BinaryRunner.run(["events", "--campaigns", BinaryRunner.root.appendingPathComponent("campaigns").path, "--history", "bad.gpx"], cwd: dir)
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("bad.gpx:1:"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "error:").count, 2, r.stderr)
    }
}
