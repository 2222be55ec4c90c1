import XCTest
@testable import GeoCampaignCore

/// The replay's output does not depend on the thread count or on streaming.
final class ReplayTests: XCTestCase {
    private func example() throws -> (CampaignSet, History) {
        let loaded = CampaignLoader().load(paths: [TestData.path("conformance-1/campaigns")])
        XCTAssertFalse(loaded.hasErrors)
        let builder = HistoryBuilder()
        try builder.read(path: TestData.path("conformance-1/history.jsonl"))
        return (loaded.campaignSet, builder.finish())
    }

    private func render(_ campaigns: CampaignSet) -> @Sendable (UserOutcome, inout ReplayCounters) -> [UInt8] {
        let writer = DecisionsWriter(format: .jsonl, includeSuppressed: true)
        let events = EventsWriter(campaigns: campaigns)
        return { o, c in
            c.count(o, campaigns: campaigns)
            var out: [UInt8] = []
            events.append(o, to: &out)
            writer.append(o, campaigns: campaigns, to: &out)
            return out
        }
    }

    private func runAll(_ campaigns: CampaignSet, _ history: History, threads: Int) -> ([UInt8], ReplayCounters) {
        let replay = Replay(campaigns: campaigns, options: .init(threads: threads))
        var bytes: [UInt8] = []
        let counters = replay.run(history: history, render: render(campaigns)) { bytes += $0 }
        return (bytes, counters)
    }

    func testOutputIsIdenticalForAnyThreadCount() throws {
        let (campaigns, history) = try example()
        let (one, c1) = runAll(campaigns, history, threads: 1)
        XCTAssertEqual(c1.users, 30)
        XCTAssertEqual(c1.events, 510)
        XCTAssertEqual(c1.decisions.values.reduce(0, +), 181)
        for threads in [2, 3, 8] {
            let (many, c) = runAll(campaigns, history, threads: threads)
            XCTAssertEqual(many, one, "threads \(threads)")
            XCTAssertEqual(c.triggers, c1.triggers)
            XCTAssertEqual(c.decisions, c1.decisions)
            XCTAssertEqual(c.byOffer, c1.byOffer)
        }
        // The counters by status and by campaign/offer are those of the decisions, counted by hand.
        let replay = Replay(campaigns: campaigns, options: .init(threads: 1))
        var byStatus: [DecisionStatus: Int] = [:]
        var byOffer: [String: [DecisionStatus: Int]] = [:]
        for u in 0..<history.userCount {
            for d in replay.outcome(userId: history.userIds[u], fixes: history.fixes[u])?.decisions ?? [] {
                byStatus[d.status, default: 0] += 1
                let c = campaigns.campaigns[d.trigger.campaign]
                byOffer[c.id + "/" + c.rules[d.trigger.rule].offer, default: [:]][d.status, default: 0] += 1
            }
        }
        XCTAssertEqual(c1.decisions, byStatus)
        XCTAssertEqual(c1.byOffer, byOffer)
        XCTAssertGreaterThan(byOffer.count, 3)
        XCTAssertEqual(DecisionStatus.allCases.map(\.index), Array(0..<DecisionStatus.allCases.count))
    }

    func testStreamingGivesTheSameBytesInInputOrder() throws {
        let (campaigns, history) = try example()
        let (expected, counters) = runAll(campaigns, history, threads: 1)
        let order = history.userIds.indices.sorted { history.userIds[$0].utf8.lexicographicallyPrecedes(history.userIds[$1].utf8) }
        for threads in [1, 2] {
            let replay = Replay(campaigns: campaigns, options: .init(threads: threads))
            let box = ByteBox()
            let c = try replay.runStreaming(produce: { emit in
                for i in order { try emit(history.userIds[i], history.fixes[i]) }
            }, render: render(campaigns), sink: { box.bytes += $0 })
            XCTAssertEqual(box.bytes, expected, "threads \(threads)")
            XCTAssertEqual(c.users, counters.users)
        }
    }

    func testStreamingStopsWhenTheProducerThrows() throws {
        struct Broken: Error {}
        let (campaigns, history) = try example()
        let replay = Replay(campaigns: campaigns, options: .init(threads: 2))
        XCTAssertThrowsError(try replay.runStreaming(produce: { emit in
            try emit(history.userIds[0], history.fixes[0])
            throw Broken()
        }, render: render(campaigns), sink: { _ in })) { XCTAssertTrue($0 is Broken) }
    }

    func testUntilDropsLaterFixesAndMovesTheEndOfTheTimeline() throws {
        let (campaigns, history) = try example()
        let i = try XCTUnwrap(history.fixes.firstIndex { $0.count > 10 })
        let fixes = history.fixes[i]
        let until = fixes[5].time
        let replay = Replay(campaigns: campaigns, options: .init(untilMs: until, threads: 1))
        let o = try XCTUnwrap(replay.outcome(userId: history.userIds[i], fixes: fixes))
        XCTAssertEqual(o.tEnd, until)
        XCTAssertEqual(o.fixCount, fixes.filter { $0.time <= until }.count)
        XCTAssertNil(Replay(campaigns: campaigns, options: .init(untilMs: fixes[0].time - 1)).outcome(userId: "x", fixes: fixes))
    }
}

private final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// User order: byte order of the UTF-8 ids, with the 8-byte prefix keys giving the same order.
final class ReplayUserOrderTests: XCTestCase {
    func testByteOrderEqualsUTF8LexicographicOrder() {
        var rng = SplitMix64(seed: 4)
        let alphabet: [String] = ["a", "b", "u", "0", "9", "\u{0}", "é", "z", "Ω", "😀", "-", "\u{7F}"]
        var ids = ["", "a", "a\u{0}", "a\u{0}b", "ab", "abcdefgh", "abcdefgh\u{0}", "abcdefghi", "abcdefgg", "abcdefgi"]
        for _ in 0..<3_000 {
            ids.append((0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined())
        }
        let order = Replay.byteOrder(ids)
        let expected = ids.indices.sorted { a, b in
            let x = Array(ids[a].utf8), y = Array(ids[b].utf8)
            return x != y ? x.lexicographicallyPrecedes(y) : a < b
        }
        XCTAssertEqual(order.map { ids[$0] }, expected.map { ids[$0] })
    }

    func testBlocksCoverEveryUserOnceAndEndSmall() {
        for users in [0, 1, 31, 255, 256, 257, 1_000, 1_023, 1_024, 1_025, 10_000, 100_001] {
            for threads in [1, 2, 3, 8] {
                let s = Replay.blockStarts(users: users, threads: threads)
                let name = "\(users) users, \(threads) threads"
                XCTAssertEqual(s.first, 0, name)
                XCTAssertEqual(s.last, users, name)
                XCTAssertTrue(zip(s, s.dropFirst()).allSatisfy { $0 < $1 && $1 - $0 <= 256 } || users == 0, name)
                if users == 0 { XCTAssertEqual(s, [0], name) }
                // On several threads the last blocks are small.
                if threads > 1 && users > 0 { XCTAssertLessThanOrEqual(s[s.count - 1] - s[s.count - 2], 32, name) }
            }
        }
        XCTAssertEqual(Replay.blockStarts(users: 10_000, threads: 2).count - 1, 36 + 32, "10k users: 35 blocks of 256 and one of 16, then 32 of 32")
    }
}
