import Foundation
import XCTest
@testable import GeoCampaignCore

/// The stream's pipeline (docs/stream.md, "How it reads"): a micro-batch resumed on the worker
/// threads while the next one is parsed writes, byte for byte, what taking the micro-batches one
/// after the other writes: decisions, and rejects with their `late` lines (a line is late
/// against the user's latest fix of the micro-batch still being resumed), in the same order.
final class StreamPipelineTests: XCTestCase {
    /// Decisions in the decisions format, suppressed ones included (the render of these tests).
    static func decisions(_ campaigns: CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8] {
        let prepared = DecisionsWriter(format: .jsonl, includeSuppressed: true).prepared(for: campaigns)
        return { o, _ in
            var out: [UInt8] = []
            prepared.append(o, to: &out)
            return out
        }
    }

    /// Interleaved users with swapped lines, a bad line every 97 lines, and after one fix in
    /// five a copy of it one second earlier: late, and at a micro-batch's first line late
    /// against the micro-batch before it (still being resumed when pipelined).
    private static func input(seed: UInt64) -> String {
        var text = ""
        for (i, (user, fix)) in StreamDriverTests.lines(seed: seed).enumerated() {
            if i % 97 == 13 { text += #"{"user":"bad","ts":"yesterday","lat":1,"lon":2}"# + "\n" }
            text += StreamDriverTests.jsonl([(user, fix)][...])
            if i % 5 == 2 { text += StreamDriverTests.jsonl([(user, Fix(time: fix.time - 1000, lat: fix.lat, lon: fix.lon))][...]) }
        }
        return text
    }

    /// The output and rejects files of one stream over `input` (a fresh state) in `dir`.
    private func run(_ input: String, in dir: URL, name: String, batchLines: Int, readBytes: Int, inlineFixes: Int,
                     commitEveryMs: Int64) throws -> (output: String, rejects: String) {
        let file = { (ext: String) in dir.appendingPathComponent("\(name).\(ext)").path }
        try Data(input.utf8).write(to: URL(fileURLWithPath: file("jsonl")))
        var h = HistoryOptions()
        h.campaignPaths = [TestData.path("conformance-1/campaigns")]
        h.historyPaths = [file("jsonl")]
        h.output = file("out")
        h.rejects = file("rej")
        h.quiet = true
        var driver = StreamDriver(history: h, statePath: file("db"), follow: false, commitEveryMs: commitEveryMs)
        driver.maxBatchLines = batchLines
        driver.readBytes = readBytes
        driver.threads = 2
        driver.inlineFixes = inlineFixes
        _ = try driver.run(Self.decisions)
        return (try String(contentsOfFile: file("out"), encoding: .utf8), try String(contentsOfFile: file("rej"), encoding: .utf8))
    }

    func testPipelinedMicroBatchesWriteWhatMicroBatchesOneAfterTheOtherWrite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var decisions = 0, late = 0, bad = 0
        for seed in UInt64(1)...3 {
            let input = Self.input(seed: seed)
            for (batchLines, readBytes, commitEveryMs) in [(7, 4093, Int64(60_000)), (100, 1 << 20, 60_000), (31, 16_381, 1)] {
                let label = "seed \(seed), batch \(batchLines), read \(readBytes), commit every \(commitEveryMs) ms"
                let name = "s\(seed)-\(batchLines)-\(readBytes)"
                let serial = try run(input, in: dir, name: name + "-serial", batchLines: batchLines, readBytes: readBytes,
                                     inlineFixes: .max, commitEveryMs: commitEveryMs)
                let piped = try run(input, in: dir, name: name + "-piped", batchLines: batchLines, readBytes: readBytes,
                                    inlineFixes: 0, commitEveryMs: commitEveryMs)
                XCTAssertEqual(piped.output, serial.output, "\(label): decisions")
                XCTAssertEqual(piped.rejects, serial.rejects, "\(label): rejects")
                decisions += serial.output.split(separator: "\n").count
                late += serial.rejects.components(separatedBy: #""reason": "late""#).count - 1
                bad += serial.rejects.components(separatedBy: #""reason": "bad_timestamp""#).count - 1
            }
        }
        // The comparison is not vacuous: decisions, late lines and other rejects on both sides.
        XCTAssertGreaterThan(decisions, 20)
        XCTAssertGreaterThan(late, 2)
        XCTAssertGreaterThan(bad, 2)
    }
}
