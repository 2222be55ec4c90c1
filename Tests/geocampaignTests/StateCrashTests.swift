import Foundation
import XCTest

/// state.md 1.4: a stateful run killed with SIGKILL at a random moment (loading, reading,
/// replay, writing, commit) and rerun with the same command gives the output and the state of
/// an uninterrupted run. The suite kills 4 times; `scripts/state-crash-test.sh` sets
/// GEOCAMPAIGN_CRASH_KILLS=20.
final class StateCrashTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: StateCommandTests.example.path), "the contract's state-1 example")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Bigger batches: the state-1 batches with every user copied 8 times.
        for k in 1...3 {
            // Bytes, not text: the batches hold invalid UTF-8 on purpose.
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: StateCommandTests.batch(k))))
            let quoteU = Array("\"u-".utf8)
            var out: [UInt8] = []
            for copy in 0..<8 {
                var i = 0
                while i < bytes.count {
                    if i + 3 <= bytes.count && Array(bytes[i..<(i + 3)]) == quoteU {
                        out += Array("\"c\(copy)-u-".utf8)
                        i += 3
                    } else {
                        out.append(bytes[i])
                        i += 1
                    }
                }
                if out.last != 0x0A { out.append(0x0A) }
            }
            try Data(out).write(to: dir.appendingPathComponent("batch-\(k).jsonl"))
        }
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    private func args(_ k: Int, state: String, tag: String) -> [String] {
        ["evaluate", "--state", state, "--include-suppressed", "--campaigns", StateCommandTests.campaigns,
         "--history", "batch-\(k).jsonl", "--output", "out-\(tag)-\(k)", "--rejects", "rej-\(tag)-\(k)", "--quiet"] + (k == 3 ? ["--final"] : [])
    }

    private func digest(_ state: String) throws -> String {
        let r = try BinaryRunner.run(["evaluate", "--state", state, "--state-info"], cwd: dir)
        return r.stdout.split(separator: "\n").first { $0.hasPrefix("content digest:") }.map(String.init) ?? "no digest: \(r.stdout) \(r.stderr)"
    }

    private func read(_ name: String) -> Data? { try? Data(contentsOf: dir.appendingPathComponent(name)) }

    func testKilledRunsRerunToTheUninterruptedOutputAndState() throws {
        let kills = Int(ProcessInfo.processInfo.environment["GEOCAMPAIGN_CRASH_KILLS"] ?? "") ?? 4
        // The uninterrupted runs, timed to place the kills.
        var reference: [String] = []
        var seconds: [Double] = []
        for k in 1...3 {
            let start = Date()
            let r = try BinaryRunner.run(args(k, state: "ref", tag: "ref"), cwd: dir)
            seconds.append(Date().timeIntervalSince(start))
            XCTAssertEqual(r.status, 0, r.stderr)
            reference.append(try digest("ref"))
        }
        XCTAssertFalse(read("out-ref-2")?.isEmpty ?? true)
        var rng = SystemRandomNumberGenerator()
        var killedMidway = 0
        for trial in 0..<kills {
            let state = "s\(trial)", tag = "t\(trial)"
            let victim = Int.random(in: 1...3, using: &rng)
            for k in 1...3 {
                if k == victim {
                    let p = Process()
                    p.executableURL = BinaryRunner.binary
                    p.arguments = args(k, state: state, tag: tag)
                    p.currentDirectoryURL = dir
                    p.standardOutput = FileHandle.nullDevice
                    p.standardError = FileHandle.nullDevice
                    try p.run()
                    // Within the first half of the fastest run seen: a run may be faster than the
                    // minute its estimate was taken in (the load of a shared machine falls).
                    usleep(UInt32(Double.random(in: 0...0.5, using: &rng) * seconds[k - 1] * 1e6))
                    if p.isRunning {
                        killedMidway += 1
                    } else {
                        // Too late: the run had ended (the rerun below is then a repeat). The
                        // next kills of this batch come sooner.
                        seconds[k - 1] /= 2
                    }
                    kill(p.processIdentifier, SIGKILL)
                    p.waitUntilExit()
                }
                let started = Date()
                let r = try BinaryRunner.run(args(k, state: state, tag: tag), cwd: dir)
                // The kills are placed within the fastest run seen so far of the same batch: a
                // first, cold reference run would put them after the run's end on a quiet machine.
                if k != victim { seconds[k - 1] = min(seconds[k - 1], Date().timeIntervalSince(started)) }
                XCTAssertEqual(r.status, 0, "trial \(trial) run \(k): \(r.stderr)")
                XCTAssertEqual(read("out-\(tag)-\(k)"), read("out-ref-\(k)"), "trial \(trial) run \(k) (killed: run \(victim)): output")
                XCTAssertEqual(read("rej-\(tag)-\(k)"), read("rej-ref-\(k)"), "trial \(trial) run \(k): rejects")
                XCTAssertEqual(try digest(state), reference[k - 1], "trial \(trial) run \(k): state")
            }
        }
        XCTAssertGreaterThanOrEqual(killedMidway * 2, kills, "most kills land while the run is going")
    }
}
