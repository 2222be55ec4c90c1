import Foundation
import XCTest
@testable import GeoCampaignCore

/// state.md 2, last point: the decisions a stream prints over its whole life (restarts
/// included, with `--output FILE`) are exactly the one-shot decisions of its non-late fixes
/// with time before each user's horizon, whatever the commit interval and where it restarts,
/// and whether idle users are dropped from memory and loaded back (eviction on by default).
final class StreamDriverTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        // In memory when the machine has it: the stream syncs its files at every commit, and the
        // tests commit thousands of times (on a busy disk that took minutes).
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        dir = base.appendingPathComponent("gc-stream-\(UUID().uuidString)")
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

    /// How a stream takes its input: lines per micro-batch, bytes per read, threads, idle eviction
    /// (nil: the campaigns' bound, the default; 0: every user behind the stream's clock at every
    /// commit), and `commitSeed`: besides the wall clock, commit after a seeded random 1-8 reads.
    struct Pacing: CustomStringConvertible {
        var batchLines: Int
        var readBytes: Int
        var threads: Int
        var idleAfterMs: Int64?
        var commitSeed: UInt64?
        var description: String {
            "batch \(batchLines), read \(readBytes), threads \(threads), idle \(idleAfterMs.map(String.init) ?? "default")"
                + (commitSeed.map { ", random commits \($0)" } ?? "")
        }
    }

    static let pacings: [Pacing] = [
        Pacing(batchLines: 1, readBytes: 1 << 16, threads: 1, idleAfterMs: nil),
        Pacing(batchLines: 3, readBytes: 97, threads: 1, idleAfterMs: 0, commitSeed: 11),
        Pacing(batchLines: 8192, readBytes: 1 << 20, threads: 2, idleAfterMs: .max),
        Pacing(batchLines: 100, readBytes: 4093, threads: 2, idleAfterMs: 1_800_000, commitSeed: 12),
    ]

    /// Over the stream runs of a case: the most users in memory after a commit, and how many
    /// were dropped as idle.
    private var inMemory = 0, evicted = 0

    private func stream(_ input: String, state: String, commitEveryMs: Int64, pacing: Pacing = pacings[2],
                        output: String? = nil, onLoad: ((inout UserState) -> Void)? = nil) throws {
        var h = HistoryOptions()
        h.campaignPaths = [TestData.path("conformance-1/campaigns")]
        h.historyPaths = [input]
        h.output = output ?? dir.appendingPathComponent("out.jsonl").path
        h.quiet = true
        var driver = StreamDriver(history: h, statePath: state, follow: false, commitEveryMs: commitEveryMs)
        driver.maxBatchLines = pacing.batchLines
        driver.readBytes = pacing.readBytes
        driver.threads = pacing.threads
        driver.idleAfterMs = pacing.idleAfterMs
        if let seed = pacing.commitSeed {
            var rng = SplitMix64(seed: seed)
            var next = 1 + Int(rng.next() % 8)
            driver.commitAfterRead = { reads in
                guard reads >= next else { return false }
                next = reads + 1 + Int(rng.next() % 8)
                return true
            }
        }
        driver.onLoad = onLoad
        let before = evicted
        driver.observeCommit = { [unowned self] m, e in
            self.inMemory = max(self.inMemory, m)
            self.evicted = before + e
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
            evicted = 0
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
            if pacing.idleAfterMs == 0 {
                XCTAssertGreaterThan(evicted, 20, "seed \(seed), \(pacing): idle users are dropped and loaded back")
            }
            if pacing.idleAfterMs == .max { XCTAssertEqual(evicted, 0, "seed \(seed), \(pacing): never") }
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

    /// One user's fixes with a second user one millisecond behind each, so that the first is
    /// behind the stream's clock at every commit: with `idleAfterMs` 0 it is dropped at every
    /// commit and loaded back by its next fix.
    static func evictedUserLines() -> String {
        var rng = SplitMix64(seed: 99)
        let track = StatefulEquivalenceTests.track(&rng, days: 2)
        var out = ""
        for f in track {
            out += #"{"user":"evicted","ts":\#(Double(f.time) / 1000),"lat":\#(f.lat),"lon":\#(f.lon)}"# + "\n"
            out += #"{"user":"clock","ts":\#(Double(f.time + 1) / 1000),"lat":37.6,"lon":-121.9}"# + "\n"
        }
        return out
    }

    /// The evicted user's decisions in one stream run with eviction at every commit (committing
    /// after every 1-8 reads), damaged with `onLoad` when loaded back, and how many drops there were.
    private func evictedUserDecisions(idleAfterMs: Int64, onLoad: ((inout UserState) -> Void)? = nil) throws -> ([String], Int) {
        let input = dir.appendingPathComponent("evict.jsonl")
        try Data(Self.evictedUserLines().utf8).write(to: input)
        let tag = UUID().uuidString
        let out = dir.appendingPathComponent("evict-\(tag).jsonl").path
        evicted = 0
        try stream(input.path, state: dir.appendingPathComponent("evict-\(tag).db").path, commitEveryMs: 3_600_000,
                   pacing: Pacing(batchLines: 1, readBytes: 200, threads: 1, idleAfterMs: idleAfterMs, commitSeed: 5), output: out, onLoad: onLoad)
        return (Self.keys(try String(contentsOfFile: out, encoding: .utf8)).filter { $0.hasPrefix("evicted ") }, evicted)
    }

    /// A user dropped from memory and loaded back at every commit prints what it prints when
    /// never dropped (the record read back within the run that wrote it carries the campaigns
    /// new to the state: with the slots the state knew before the run, it lost them, issue 11).
    func testAUserDroppedAndLoadedBackDecidesAsOneNeverDropped() throws {
        let (kept, none) = try evictedUserDecisions(idleAfterMs: .max)
        let (dropped, drops) = try evictedUserDecisions(idleAfterMs: 0)
        XCTAssertEqual(none, 0)
        XCTAssertGreaterThan(drops, 100, "the user is dropped and loaded back many times")
        XCTAssertGreaterThan(kept.count, 5, "the comparison is not vacuous")
        XCTAssertEqual(dropped, kept)
    }

    /// Negative controls: losing one piece of the state when a dropped user is loaded back
    /// changes the decisions, so the comparisons above can fail.
    func testLosingAPieceOfStateOnReloadChangesTheDecisions() throws {
        let (kept, _) = try evictedUserDecisions(idleAfterMs: .max)
        let damages: [(String, (inout UserState) -> Void)] = [
            ("earlier deliveries (caps, limits)", { $0.seeds = [] }),
            ("the crossing's tracks", { $0.crossing.tracks = [] }),
            ("the kept closed visits", { s in for c in s.campaigns.indices { s.campaigns[c].visits = [] } }),
            ("the campaigns' timelines", { s in for c in s.campaigns.indices { s.campaigns[c].t0 = nil } }),
        ]
        for (name, damage) in damages {
            let (broken, drops) = try evictedUserDecisions(idleAfterMs: 0, onLoad: damage)
            XCTAssertGreaterThan(drops, 100)
            XCTAssertNotEqual(broken, kept, "losing \(name) on reload should change some decision")
        }
    }
}
