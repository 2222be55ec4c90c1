import XCTest
@testable import GeoCampaignCore

/// state.md 1.1 "Equivalence": for seeded generated histories split into 2-6 batches at per-user
/// cut points, with some fixes arriving one batch late, the runs' outputs together equal one
/// one-shot run over the whole history less its late fixes (with `--final` on the last run),
/// and without `--final` the one-shot decisions and events before each user's horizon. Every
/// run goes through the state's record encoding, as the database stores it. Decisions are
/// compared twice: as data, and as the lines `evaluate --include-suppressed` writes, whole
/// (the `reason` objects with the earlier decisions they name included), evidence exits aside.
///
/// Negative controls: the same comparison fails when the state forgets the earlier deliveries
/// (caps and limits), the crossing's tracks, the kept closed visits, the horizon, or only the
/// rule ids of the earlier deliveries (the decisions are then the same, their reasons not).
final class StatefulEquivalenceTests: XCTestCase {
    /// The conformance campaigns: windows, sequences, `not`, caps, a per-user limit, two tracking groups.
    static let campaigns: CampaignSet = {
        let loaded = CampaignLoader().load(paths: [TestData.path("conformance-1/campaigns")])
        return loaded.campaignSet
    }()

    /// A place fixes cluster around: a region's centre, or somewhere else.
    static let places: [Coordinate] = {
        var out: [Coordinate] = []
        for c in campaigns.campaigns {
            for r in c.regions {
                switch r.shape {
                case .circle(let center, _): out.append(center)
                case .polygon(let parts):
                    guard let ring = parts.first?.outer, !ring.isEmpty else { continue }
                    out.append(Coordinate(lat: ring.map(\.lat).reduce(0, +) / Double(ring.count), lon: ring.map(\.lon).reduce(0, +) / Double(ring.count)))
                }
            }
        }
        return out
    }()

    /// One user's fixes over some days: stays at places (1-100 min, a fix every 15-120 s),
    /// trips between them, silences longer than max_gap, and repeated instants.
    static func track(_ rng: inout SplitMix64, days: Int) -> [Fix] {
        var fixes: [Fix] = []
        var t: Int64 = 1_772_400_000_000 + Int64(rng.next() % 3_600_000)
        let end = t + Int64(days) * 86_400_000
        while t < end {
            let home = rng.unit() < 0.2
            let p = home ? Coordinate(lat: 37.70, lon: -121.80) : places[Int(rng.next() % UInt64(places.count))]
            let stay = Int64(60_000 + rng.next() % 6_000_000)
            let stop = t + stay
            while t < stop {
                let r = rng.unit() * 40 / 111_000
                fixes.append(Fix(time: t, lat: p.lat + r * (rng.unit() - 0.5), lon: p.lon + r * (rng.unit() - 0.5), accuracy: 10 + rng.unit() * 20))
                if rng.unit() < 0.03 { fixes.append(Fix(time: t, lat: p.lat, lon: p.lon)) }
                t += Int64(15_000 + rng.next() % 105_000)
            }
            // A trip (a few fixes away from everything), or a silence.
            if rng.unit() < 0.3 {
                t += Int64(1_500_000 + rng.next() % 20_000_000)
            } else {
                for _ in 0..<3 {
                    fixes.append(Fix(time: t, lat: 37.60 + rng.unit() * 0.02, lon: -121.90 + rng.unit() * 0.02))
                    t += Int64(60_000 + rng.next() % 240_000)
                }
            }
        }
        return fixes
    }

    /// What a decision says, evidence exits aside (state.md 1.1).
    struct DecisionKey: Hashable, Comparable {
        var user: String, time: Int64, campaign: Int, rule: Int, status: String, evidence: [String]
        static func < (a: DecisionKey, b: DecisionKey) -> Bool {
            (a.user, a.time, a.campaign, a.rule) < (b.user, b.time, b.campaign, b.rule)
        }
    }

    static func keys(_ o: UserOutcome) -> [DecisionKey] {
        o.decisions.map { d in
            let visits = o.visits[d.trigger.campaign]
            return DecisionKey(user: o.userId, time: d.trigger.time, campaign: d.trigger.campaign, rule: d.trigger.rule,
                               status: d.status.rawValue, evidence: d.trigger.evidence.map { "\(visits[$0].region)@\(visits[$0].enter)" })
        }
    }

    /// The decision lines of `evaluate --include-suppressed`, each visit's `exit` left out
    /// (state.md 1.1: evidence exits aside).
    static func lines(_ o: UserOutcome) -> [String] {
        var out: [UInt8] = []
        suppressedWriter.append(o, to: &out)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map { line in
            String(line).replacing(#/,"exit":(null|"[^"]*")/#, with: "")
        }
    }

    static let suppressedWriter = DecisionsWriter(format: .jsonl, includeSuppressed: true).prepared(for: campaigns)

    static func events(_ o: UserOutcome) -> [String] {
        var out: [UInt8] = []
        EventsWriter(campaigns: campaigns).append(o, to: &out)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A way of damaging the state between runs (for the negative controls).
    typealias Damage = (inout UserState) -> Void

    /// The outcome of one seed: what the runs printed and what the one-shot run gives.
    struct Case {
        var printedDecisions: [DecisionKey] = []
        var printedLines: [String] = []
        var printedEvents: [String] = []
        var oneShotDecisions: [DecisionKey] = []
        var oneShotLines: [String] = []
        var oneShotEvents: [String] = []
        var late = 0
    }

    static func run(seed: UInt64, final: Bool, damage: Damage? = nil) -> Case {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let replay = Replay(campaigns: campaigns, options: .init(threads: 1))
        let context = replay.resumeContext()
        let users = 4 + Int(rng.next() % 4)
        let batches = 2 + Int(rng.next() % 5)
        var perBatch = [[(String, [Fix])]](repeating: [], count: batches)
        for u in 0..<users {
            let id = "u-\(seed)-\(u)"
            let fixes = track(&rng, days: 1 + Int(rng.next() % 6))
            // Per-user cut points, then a few fixes held back one batch (late, or not if nothing newer came).
            var cuts = (0..<(batches - 1)).map { _ in Int(rng.next() % UInt64(fixes.count + 1)) }.sorted()
            cuts = [0] + cuts + [fixes.count]
            var parts = (0..<batches).map { Array(fixes[cuts[$0]..<cuts[$0 + 1]]) }
            for b in 0..<(batches - 1) where !parts[b].isEmpty && rng.unit() < 0.4 {
                let k = Int(rng.next() % UInt64(parts[b].count))
                parts[b + 1].append(parts[b].remove(at: k))
            }
            for b in 0..<batches { perBatch[b].append((id, parts[b])) }
        }
        // The stateful runs, each user's state through its record encoding.
        let slots = Array(1...campaigns.campaigns.count)
        let campaignOfSlot = Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($1, $0) })
        var records: [String: [UInt8]] = [:]
        var whole: [String: [Fix]] = [:]
        var result = Case()
        for b in 0..<batches {
            let last = b == batches - 1
            for (id, part) in perBatch[b] {
                var state = records[id].flatMap { UserState.decoded($0, campaignOfSlot: campaignOfSlot, campaignCount: campaigns.campaigns.count) }
                if records[id] != nil { XCTAssertNotNil(state, "the record decodes") }
                if var s = state, let damage { damage(&s); state = s }
                var batch = part.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
                if let s = state {
                    let n = batch.count
                    batch.removeAll { $0.time < s.tEnd }
                    result.late += n - batch.count
                }
                whole[id, default: []] += batch
                if batch.isEmpty && !(final && last) { continue }
                guard let r = replay.resume(userId: id, state: state, batch: batch, final: final && last, context: context) else { continue }
                result.printedDecisions += keys(r.outcome)
                result.printedLines += lines(r.outcome)
                result.printedEvents += events(r.outcome)
                records[id] = r.state.encoded(slots: slots)
            }
        }
        // The one-shot run over the whole history less the late fixes; without --final, cut at each user's horizon.
        for (id, fixes) in whole {
            let sorted = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            guard var o = replay.outcome(userId: id, fixes: sorted) else { continue }
            if !final, let record = records[id], let s = UserState.decoded(record, campaignOfSlot: campaignOfSlot, campaignCount: campaigns.campaigns.count) {
                o.decisions.removeAll { $0.trigger.time >= s.settled }
                o.eventsBefore = s.settled
            }
            result.oneShotDecisions += keys(o)
            result.oneShotLines += lines(o)
            result.oneShotEvents += events(o)
        }
        return result
    }

    static func matches(_ c: Case) -> Bool {
        c.printedDecisions.sorted() == c.oneShotDecisions.sorted() && c.printedEvents.sorted() == c.oneShotEvents.sorted()
            && c.printedLines.sorted() == c.oneShotLines.sorted()
    }

    func testBatchRunsEqualTheOneShotRun() {
        var decisions = 0, late = 0, reasons = 0, statuses = Set<String>()
        for seed in UInt64(1)...40 {
            for final in [true, false] {
                let c = Self.run(seed: seed, final: final)
                XCTAssertEqual(c.printedDecisions.sorted(), c.oneShotDecisions.sorted(), "seed \(seed) final \(final): decisions")
                XCTAssertEqual(c.printedEvents.sorted(), c.oneShotEvents.sorted(), "seed \(seed) final \(final): events")
                XCTAssertEqual(c.printedLines.sorted(), c.oneShotLines.sorted(), "seed \(seed) final \(final): --include-suppressed lines")
                XCTAssertEqual(Set(c.printedDecisions).count, c.printedDecisions.count, "seed \(seed): each decision printed once")
                if final {
                    decisions += c.oneShotDecisions.count
                    late += c.late
                    reasons += c.oneShotLines.filter { $0.contains(#""by":[{"#) }.count
                }
                statuses.formUnion(c.oneShotDecisions.map(\.status))
            }
        }
        // The comparison is not vacuous: many decisions of every status, and late fixes.
        XCTAssertGreaterThan(decisions, 300)
        XCTAssertGreaterThan(late, 20)
        XCTAssertGreaterThan(reasons, 100, "reasons naming earlier decisions")
        XCTAssertEqual(statuses, ["delivered", "capped", "held_out", "lower_priority", "limited"])
    }

    /// Each piece of state matters: dropping it breaks the equivalence for some seed.
    func testDroppingAPieceOfStateBreaksTheEquivalence() {
        let damages: [(String, Damage)] = [
            ("earlier deliveries (caps, limits)", { $0.seeds = [] }),
            ("the crossing's tracks", { $0.crossing.tracks = [] }),
            ("the kept closed visits", { s in for c in s.campaigns.indices { s.campaigns[c].visits = [] } }),
            ("the horizon", { $0.settled = .min }),
            ("the rule ids of earlier deliveries (reasons only)", { s in for k in s.seeds.indices { s.seeds[k].ruleId = "" } }),
        ]
        for (name, damage) in damages {
            let broken = (UInt64(1)...40).contains { !Self.matches(Self.run(seed: $0, final: true, damage: damage)) }
            XCTAssertTrue(broken, "dropping \(name) should change some output")
        }
    }
}
