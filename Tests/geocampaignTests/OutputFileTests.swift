import Foundation
import XCTest

/// Output files are written aside and renamed (conventions, state.md 1.4): a run that fails
/// leaves an existing `--output` and `--rejects` file exactly as it was; a run that succeeds
/// replaces them whole; `--output -` is stdout.
final class OutputFileTests: XCTestCase {
    private var dir: URL!
    private let campaigns = BinaryRunner.root.appendingPathComponent("campaigns").path

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let good = #"{"user":"u","ts":"2026-03-10T12:00:00Z","lat":47.37,"lon":8.54}"# + "\n"
        try Data(good.utf8).write(to: dir.appendingPathComponent("good.jsonl"))
        try Data((good + "not json\n").utf8).write(to: dir.appendingPathComponent("bad.jsonl"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func contents(_ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
    }

    func testAFailedRunLeavesTheExistingOutputAndRejectsWhole() throws {
        for command in ["evaluate", "events"] {
            try Data("OLD OUTPUT\n".utf8).write(to: dir.appendingPathComponent("out.jsonl"))
            try Data("OLD REJECTS\n".utf8).write(to: dir.appendingPathComponent("rejects.jsonl"))
            let r = try BinaryRunner.run([command, "--campaigns", campaigns, "--history", "bad.jsonl", "--strict",
                                          "--output", "out.jsonl", "--rejects", "rejects.jsonl", "--quiet"], cwd: dir)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("bad.jsonl:2: rejected line"), r.stderr)
            XCTAssertEqual(try contents("out.jsonl"), "OLD OUTPUT\n", command)
            XCTAssertEqual(try contents("rejects.jsonl"), "OLD REJECTS\n", command)
            XCTAssertEqual(try leftovers(), [], "no temporary file is left behind")
        }
    }

    func testASuccessfulRunReplacesTheOutputWhole() throws {
        try Data(String(repeating: "OLD OUTPUT THAT IS LONGER THAN THE NEW ONE\n", count: 100).utf8).write(to: dir.appendingPathComponent("out.jsonl"))
        try Data("OLD REJECTS\n".utf8).write(to: dir.appendingPathComponent("rejects.jsonl"))
        let r = try BinaryRunner.run(["events", "--campaigns", campaigns, "--history", "bad.jsonl",
                                      "--output", "out.jsonl", "--rejects", "rejects.jsonl", "--quiet"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let stdout = try BinaryRunner.run(["events", "--campaigns", campaigns, "--history", "bad.jsonl", "--quiet"], cwd: dir)
        XCTAssertEqual(try contents("out.jsonl"), stdout.stdout)
        XCTAssertFalse(try contents("out.jsonl").contains("OLD"))
        let rejects = try contents("rejects.jsonl")
        XCTAssertTrue(rejects.hasPrefix("{\"line\": 2, \"reason\": \"invalid_json\""), rejects)
        XCTAssertFalse(rejects.contains("OLD"))
        XCTAssertEqual(try leftovers(), [])
    }

    func testOutputDashIsStdout() throws {
        let plain = try BinaryRunner.run(["evaluate", "--campaigns", campaigns, "--history", "good.jsonl", "--quiet"], cwd: dir)
        let dash = try BinaryRunner.run(["evaluate", "--campaigns", campaigns, "--history", "good.jsonl", "--quiet", "--output", "-"], cwd: dir)
        XCTAssertEqual(dash.status, 0, dash.stderr)
        XCTAssertEqual(dash.stdout, plain.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
    }

    func testAnOutputInAMissingFolderIsAClearErrorAndTouchesNothing() throws {
        let r = try BinaryRunner.run(["evaluate", "--campaigns", campaigns, "--history", "good.jsonl", "--output", "nope/out.jsonl"], cwd: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("error: nope/out.jsonl: cannot be written"), r.stderr)
    }

    func testADeviceIsWrittenInPlace() throws {
        let r = try BinaryRunner.run(["evaluate", "--campaigns", campaigns, "--history", "good.jsonl", "--output", "/dev/null", "--quiet"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        var isDir: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/dev/null", isDirectory: &isDir))
    }
}
