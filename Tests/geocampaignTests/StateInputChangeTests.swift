import Foundation
import XCTest

/// A batch file cut short by another program while a stateful run reads it (a producer that
/// rewrites its export, a clean-up job) is no crash: the run reads fewer bytes, ends with an
/// exit status, and the state stays readable. The build before (f5b1404) mapped the file to
/// hash it, and a cut during the hash stopped the run with SIGBUS (2 runs of 6 by hand on a
/// 48 MB batch; about 1 attempt in 3 of this test).
final class StateInputChangeTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    func testABatchCutShortWhileItIsReadIsNoCrash() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc to see when the file is open")
        // About 40 MB of valid lines: the hash and the read take tens of milliseconds.
        var text = ""
        for i in 0..<4_000 {
            text += "{\"user\":\"u\(i % 97)\",\"ts\":\(1_772_445_600 + i),\"lat\":37.70,\"lon\":-121.75,\"accuracy\":10}\n"
        }
        let block = Data(text.utf8)
        var whole = Data(capacity: block.count * 100)
        for _ in 0..<100 { whole.append(block) }
        let campaigns = StateCommandTests.campaigns
        for (attempt, delayMs) in [0, 0, 1, 2, 3, 5, 8, 12].enumerated() {
            let batch = dir.appendingPathComponent("batch-\(attempt).jsonl").path
            try whole.write(to: URL(fileURLWithPath: batch))
            let p = Process()
            p.executableURL = BinaryRunner.binary
            p.arguments = ["evaluate", "--state", "s-\(attempt)", "--campaigns", campaigns, "--history", batch, "--quiet",
                           "--output", "out-\(attempt)"]
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            var waited = 0
            while p.isRunning && !BinaryRunner.hasOpen(p.processIdentifier, batch) && waited < 20_000 {
                usleep(200)
                waited += 1
            }
            usleep(useconds_t(delayMs * 1000))
            XCTAssertEqual(truncate(batch, 0), 0)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .exit, "attempt \(attempt): stopped by signal \(p.terminationStatus)")
            XCTAssertTrue([0, 65].contains(p.terminationStatus), "attempt \(attempt): exit \(p.terminationStatus)")
            let info = try BinaryRunner.run(["evaluate", "--state", "s-\(attempt)", "--state-info"], cwd: dir)
            XCTAssertEqual(info.status, 0, info.stderr)
        }
    }
}
