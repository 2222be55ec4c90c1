import Foundation
import XCTest
@testable import GeoCampaignCore

/// state.md 2, last point: the decisions a stream prints over its whole life (restarts
/// included, with `--output FILE`) are exactly the one-shot decisions of its non-late fixes
/// with time before each user's horizon, whatever the commit interval and where it restarts.
final class StreamDriverTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Users' tracks interleaved by time, with some adjacent lines swapped (out of order).
    static func lines(seed: UInt64) -> [(String, Fix)] {
        var rng = SplitMix64(seed: seed &* 7919 &+ 3)
        var all: [(String, Fix)] = []
        for u in 0..<(3 + Int(rng.next() % 4)) {
            all += StatefulEquivalenceTests.track(&rng, days: 1 + Int(rng.next() % 2)).map { ("s\(seed)-\(u)", $0) }
        }
        all = all.enumerated().sorted { ($0.element.1.time, $0.offset) < ($1.element.1.time, $1.offset) }.map(\.element)
        for i in stride(from: 1, to: all.count, by: 1) where rng.unit() < 0.01 { all.swapAt(i - 1, i) }
        return all
    }

    static func jsonl(_ lines: ArraySlice<(String, Fix)>) -> String {
        lines.map { u, f in #"{"user":"\#(u)","ts":\#(Double(f.time) / 1000),"lat":\#(f.lat),"lon":\#(f.lon)}"# + "\n" }.joined()
    }

    /// (user, time, campaign, rule, status) of each decision line.
    static func keys(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return ["user", "time", "campaign", "rule", "status"].map { "\(o[$0] ?? "")" }.joined(separator: " ")
        }.sorted()
    }

    /// How a stream takes its input: lines per micro-batch, bytes per read, threads, idle eviction.
    struct Pacing: CustomStringConvertible {
        var batchLines: Int
        var readBytes: Int
        var threads: Int
        var idleAfterMs: Int64?
        var description: String { "batch \(batchLines), read \(readBytes), threads \(threads), idle \(idleAfterMs.map(String.init) ?? "default")" }
    }

    static let pacings: [Pacing] = [
        Pacing(batchLines: 1, readBytes: 1 << 16, threads: 1, idleAfterMs: nil),
        Pacing(batchLines: 3, readBytes: 97, threads: 1, idleAfterMs: nil),
        Pacing(batchLines: 8192, readBytes: 1 << 20, threads: 2, idleAfterMs: nil),
        Pacing(batchLines: 100, readBytes: 4093, threads: 2, idleAfterMs: nil),
    ]

    /// Per stream run: the most users in memory after a commit, and how many were dropped as idle.
    private var inMemory = 0, evicted = 0

    private func stream(_ input: String, state: String, commitEveryMs: Int64, pacing: Pacing = pacings[2]) throws {
        var h = HistoryOptions()
        h.campaignPaths = [TestData.path("conformance-1/campaigns")]
        h.historyPaths = [input]
        h.output = dir.appendingPathComponent("out.jsonl").path
        h.quiet = true
        var driver = StreamDriver(history: h, statePath: state, follow: false, commitEveryMs: commitEveryMs)
        driver.maxBatchLines = pacing.batchLines
        driver.readBytes = pacing.readBytes
        driver.threads = pacing.threads
        driver.idleAfterMs = pacing.idleAfterMs
        driver.observeCommit = { [unowned self] m, e in
            self.inMemory = max(self.inMemory, m)
            self.evicted = e
        }
        _ = try driver.run(StreamPipelineTests.decisions)
    }

    func testTheStreamPrintsTheOneShotDecisionsOfItsNonLateFixesBeforeTheHorizon() throws {
        let campaigns = StatefulEquivalenceTests.campaigns
        let replay = Replay(campaigns: campaigns, options: .init(threads: 1))
        var total = 0, late = 0
        for (k, pacing) in Self.pacings.enumerated() {
        for seed in UInt64(1)...3 {
            let all = Self.lines(seed: seed)
            let input = dir.appendingPathComponent("in-\(k)-\(seed).jsonl").path
            let state = dir.appendingPathComponent("state-\(k)-\(seed).db").path
            try? FileManager.default.removeItem(atPath: dir.appendingPathComponent("out.jsonl").path)
            // The file grows in 1-3 pieces between runs (a restart continues at the committed offset).
            var cut = 0
            let pieces = 1 + Int(seed % 3)
            for p in 1...pieces {
                let next = p == pieces ? all.count : all.count * p / pieces
                let handle = FileManager.default.fileExists(atPath: input) ? try FileHandle(forWritingTo: URL(fileURLWithPath: input)) : nil
                if let handle {
                    handle.seekToEndOfFile()
                    handle.write(Data(Self.jsonl(all[cut..<next]).utf8))
                    try handle.close()
                } else {
                    try Data(Self.jsonl(all[cut..<next]).utf8).write(to: URL(fileURLWithPath: input))
                }
                cut = next
                try stream(input, state: state, commitEveryMs: Int64(1 + seed % 2), pacing: pacing)
            }
            let text = try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8)
            var lastTime: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let u = o["user"] as? String, let t = o["time"] as? String else { continue }
                XCTAssertLessThanOrEqual(lastTime[u] ?? "", t, "seed \(seed), \(pacing): a user's decisions in time order")
                lastTime[u] = t
            }
            let printed = Self.keys(try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8))
            // The one-shot run over the non-late fixes, cut at each user's horizon from the state.
            var kept: [String: [Fix]] = [:]
            for (u, f) in all {
                if let last = kept[u]?.last, f.time < last.time { late += 1; continue }
                kept[u, default: []].append(f)
            }
            let store = try StateStore(path: state, create: false)
            let slots = try store.campaigns().enumerated().map { ($1.slot, $0) }
            let reader = try store.userReader()
            var expected = ""
            for id in Replay.byteOrder(Array(kept.keys)).map({ Array(kept.keys)[$0] }) {
                guard var o = replay.outcome(userId: id, fixes: kept[id] ?? []),
                      let record = try reader.record(id),
                      let s = UserState.decoded(record, campaignOfSlot: Dictionary(uniqueKeysWithValues: slots), campaignCount: campaigns.campaigns.count) else { continue }
                o.decisions.removeAll { $0.trigger.time >= s.settled }
                var out: [UInt8] = []
                DecisionsWriter(format: .jsonl, includeSuppressed: true).append(o, campaigns: campaigns, to: &out)
                expected += String(decoding: out, as: UTF8.self)
            }
            XCTAssertEqual(printed, Self.keys(expected), "seed \(seed), \(pacing)")
            XCTAssertEqual(Set(printed).count, printed.count, "seed \(seed), \(pacing): each decision once")
            total += printed.count
        }
        }
        XCTAssertGreaterThan(total, 20, "the comparison is not vacuous")
        XCTAssertGreaterThan(late, 2, "some lines arrive out of order")
    }
}
