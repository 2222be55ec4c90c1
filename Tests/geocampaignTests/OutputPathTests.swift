import Foundation
import XCTest

/// Output paths never destroy an input or each other (issue 10 item 9); `--output -` is stdout.
final class OutputPathTests: XCTestCase {
    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func testAnOutputNamingAnInputOrTheOtherOutputIsRefusedAndNothingIsTouched() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let history = dir.appendingPathComponent("day.jsonl")
        let original = try Data(contentsOf: BinaryRunner.root.appendingPathComponent("examples/visits.jsonl"))
        try original.write(to: history)
        let other = dir.appendingPathComponent("out.jsonl")
        try Data("keep me\n".utf8).write(to: other)
        let campaign = BinaryRunner.root.appendingPathComponent("campaigns/lorrenzillos.yaml").path
        let campaignBytes = try Data(contentsOf: URL(fileURLWithPath: campaign))
        let cases: [([String], String)] = [
            (["--output", history.path], "--output '\(history.path)' is the same file as --history '\(history.path)'"),
            (["--output", dir.path + "/./day.jsonl"], "is the same file as --history '\(history.path)'"),
            (["--rejects", history.path], "--rejects '\(history.path)' is the same file as --history"),
            (["--output", other.path, "--rejects", other.path], "--rejects '\(other.path)' is the same file as --output '\(other.path)'"),
            (["--output", campaign], "is the same file as --campaigns 'campaigns/lorrenzillos.yaml'"),
        ]
        for command in ["evaluate", "events"] {
            for (args, message) in cases {
                let r = try BinaryRunner.run([command, "--history", history.path, "--quiet"] + args)
                XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("error: ") && r.stderr.contains(message), r.stderr)
                XCTAssertEqual(try Data(contentsOf: history), original, "the history must be untouched")
                XCTAssertEqual(try Data(contentsOf: other), Data("keep me\n".utf8))
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: campaign)), campaignBytes)
            }
        }
        // Negative control: a distinct output is written.
        let r = try BinaryRunner.run(["evaluate", "--history", history.path, "--quiet", "--output", other.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(try Data(contentsOf: other), Data("keep me\n".utf8))
    }

    func testOutputDashIsStandardOutput() throws {
        let plain = try BinaryRunner.run(["evaluate", "--history", "examples/visits.jsonl", "--quiet"])
        let here = try BinaryRunner.run(["evaluate", "--history", "examples/visits.jsonl", "--quiet", "--output", "-"])
        XCTAssertEqual(here.status, 0, here.stderr)
        XCTAssertFalse(plain.stdout.isEmpty)
        XCTAssertEqual(here.stdout, plain.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: BinaryRunner.root.appendingPathComponent("-").path))
    }

    /// Regression: `--output /dev/stdout` with stdout redirected to a file replaced the
    /// `/dev/stdout` link by a regular file (the atomic writer renamed onto it).
    func testDevStdoutOnARedirectedFileIsWrittenThroughTheDescriptor() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-devout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.jsonl").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: out))
        p.arguments = ["-c", "exec \"$0\" evaluate --history examples/visits.jsonl --quiet --output /dev/stdout >> \"$1\"", BinaryRunner.binary.path, out]
        p.currentDirectoryURL = BinaryRunner.root
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let plain = try BinaryRunner.run(["evaluate", "--history", "examples/visits.jsonl", "--quiet"])
        XCTAssertFalse(plain.stdout.isEmpty)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "kept\n" + plain.stdout, "appended through the shell's descriptor")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout"), "/proc/self/fd/1")
    }
}
