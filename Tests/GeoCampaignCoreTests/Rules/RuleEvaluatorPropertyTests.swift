import XCTest
@testable import GeoCampaignCore

/// Random rules and visits on a small millisecond timeline, checked instant by instant against a
/// direct reading of semantics 3 (triggers) and 4.4 (evidence).
final class RuleEvaluatorPropertyTests: XCTestCase {
    let regions = [region("a", tags: ["x"]), region("b", tags: ["x"]), region("c")]
    let ids = ["a", "b", "c"]

    /// Whether `cond` holds at `t` by the definitions (timeline clipping is applied by the caller).
    func holds(_ cond: Condition, _ t: Int64, _ visits: [Visit], _ t0: Int64, _ tEnd: Int64) -> Bool {
        func matches(_ s: RegionSelector, _ v: Visit) -> Bool { s.matches(regions[Int(v.region)]) }
        switch cond {
        case .inside(let c):
            return visits.contains { matches(c.selector, $0) && $0.enter <= t && t < ($0.exit ?? Int64.max) }
        case .visited(let c):
            let covering = visits.filter { v in
                guard matches(c.selector, v), v.duration >= c.minDwellMs else { return false }
                let q = v.enter + c.minDwellMs
                return q <= t && t < (c.withinMs.map { q + $0 } ?? Int64.max)
            }
            return (c.distinct ? Set(covering.map(\.region)).count : covering.count) >= c.atLeast
        case .dwelled(let c):
            return visits.contains { matches(c.selector, $0) && $0.duration > c.overMs && $0.enter + c.overMs <= t && t < ($0.exit ?? Int64.max) }
        case .sequence(let c):
            func extend(_ chain: [Visit]) -> Bool {
                if chain.count == c.steps.count {
                    let qs = chain.enumerated().map { $0.element.enter + c.steps[$0.offset].minDwellMs }
                    return (qs.max() ?? 0) <= t && t < qs[0] + c.withinMs
                }
                let step = c.steps[chain.count]
                return visits.contains { v in
                    matches(step.selector, v) && v.duration >= step.minDwellMs && (chain.last.map { $0.enter < v.enter } ?? true) && extend(chain + [v])
                }
            }
            return extend([])
        case .during: return true
        case .all(let parts): return parts.allSatisfy { holds($0, t, visits, t0, tEnd) }
        case .any(let parts): return parts.contains { holds($0, t, visits, t0, tEnd) }
        case .not(let inner): return !holds(inner, t, visits, t0, tEnd)
        }
    }

    func containsSequence(_ cond: Condition) -> Bool {
        switch cond {
        case .sequence: return true
        case .all(let parts), .any(let parts): return parts.contains(where: containsSequence)
        case .not(let inner): return containsSequence(inner)
        default: return false
        }
    }

    /// The evidence of `cond` at `t` by semantics 4.4 (without `sequence`).
    func evidence(_ cond: Condition, _ t: Int64, _ visits: [Visit], _ t0: Int64, _ tEnd: Int64) -> Set<Int> {
        func matches(_ s: RegionSelector, _ v: Visit) -> Bool { s.matches(regions[Int(v.region)]) }
        switch cond {
        case .inside(let c):
            return Set(visits.indices.filter { matches(c.selector, visits[$0]) && visits[$0].enter <= t && t < (visits[$0].exit ?? Int64.max) })
        case .visited(let c):
            return Set(visits.indices.filter { i in
                let v = visits[i]
                guard matches(c.selector, v), v.duration >= c.minDwellMs else { return false }
                let q = v.enter + c.minDwellMs
                return q <= t && t < (c.withinMs.map { q + $0 } ?? Int64.max)
            })
        case .dwelled(let c):
            return Set(visits.indices.filter { i in
                let v = visits[i]
                return matches(c.selector, v) && v.duration > c.overMs && v.enter + c.overMs <= t && t < (v.exit ?? Int64.max)
            })
        case .sequence, .during, .not: return []
        case .all(let parts), .any(let parts):
            return parts.filter { holds($0, t, visits, t0, tEnd) }.reduce(into: Set<Int>()) { $0.formUnion(evidence($1, t, visits, t0, tEnd)) }
        }
    }

    func randomSelector(_ rng: inout SplitMix) -> RegionSelector {
        switch rng.next() % 3 {
        case 0: return RegionSelector(tags: ["x"])
        case 1: return RegionSelector(regions: [ids[Int(rng.next() % 3)]])
        default: return RegionSelector(regions: ["c"], tags: ["x"])
        }
    }

    func randomCondition(_ rng: inout SplitMix, depth: Int) -> Condition {
        let pick = depth >= 2 ? rng.next() % 4 : rng.next() % 7
        switch pick {
        case 0: return .inside(InsideCondition(selector: randomSelector(&rng)))
        case 1: return .visited(VisitedCondition(selector: randomSelector(&rng), atLeast: 1 + Int(rng.next() % 3), distinct: rng.next() % 2 == 0,
                                                 withinMs: rng.next() % 3 == 0 ? nil : Int64(rng.next() % 40), minDwellMs: Int64(rng.next() % 8)))
        case 2: return .dwelled(DwelledCondition(selector: randomSelector(&rng), overMs: Int64(rng.next() % 10)))
        case 3: return .sequence(SequenceCondition(steps: (0..<(2 + Int(rng.next() % 2))).map { _ in
            .init(selector: randomSelector(&rng), minDwellMs: Int64(rng.next() % 5)) }, withinMs: Int64(rng.next() % 50)))
        case 4: return .all((0..<(1 + Int(rng.next() % 3))).map { _ in randomCondition(&rng, depth: depth + 1) })
        case 5: return .any((0..<(1 + Int(rng.next() % 3))).map { _ in randomCondition(&rng, depth: depth + 1) })
        default: return .not(randomCondition(&rng, depth: depth + 1))
        }
    }

    /// Up to 7 random visits within `[t0, tEnd]`, some of them open.
    func randomVisits(_ rng: inout SplitMix, _ t0: Int64, _ tEnd: Int64) -> [Visit] {
        var visits: [Visit] = []
        for _ in 0..<Int(rng.next() % 8) {
            let enter = t0 + Int64(rng.next() % UInt64(tEnd - t0 + 1))
            let r = Int32(rng.next() % 3)
            if rng.next() % 5 == 0 {
                visits.append(visit(r, enter, nil, lastSeen: enter + Int64(rng.next() % UInt64(tEnd - enter + 1))))
            } else {
                visits.append(visit(r, enter, min(tEnd, enter + Int64(rng.next() % 30))))
            }
        }
        return visits
    }

    /// `CompiledCondition.mayHold(atOrAfter:)` says false only when the condition holds at no
    /// instant at or after `t`, and `mayStart(atOrAfter:)` only when none of its intervals
    /// starts there, whatever the timeline (checked on a timeline far wider than the visits);
    /// both say false often enough to be tested (a `true` everywhere would pass the first half).
    func testMayHoldAndMayStartAreFalseOnlyWhenNothingCanBeThere() {
        var rng = SplitMix(seed: 909)
        var saidNo = 0, saidNoStart = 0
        for round in 0..<1500 {
            let t0 = Int64(rng.next() % 20), tEnd = t0 + Int64(rng.next() % 120)
            let visits = randomVisits(&rng, t0, tEnd)
            let cond = randomCondition(&rng, depth: 0)
            let c = campaign(regions: regions, conditions: [cond])
            let evaluator = RuleEvaluator(campaign: c, campaignIndex: 0)
            let set = evaluator.intervals(rule: 0, visits: visits, t0: -1_000, tEnd: 1_000)
            let end = set.intervals.last?.end ?? .min, lastStart = set.starts.last ?? .min
            for t in (t0 - 2)...(tEnd + 40) {
                if !evaluator.conditions[0].mayHold(atOrAfter: t, visits) {
                    saidNo += 1
                    XCTAssertLessThanOrEqual(end, t, "round \(round), t \(t): \(cond) \(visits)")
                }
                if !evaluator.conditions[0].mayStart(atOrAfter: t, visits) {
                    saidNoStart += 1
                    XCTAssertLessThan(lastStart, t, "round \(round), t \(t): \(cond) \(visits)")
                }
            }
        }
        XCTAssertGreaterThan(saidNo, 10_000)
        XCTAssertGreaterThan(saidNoStart, 10_000)
    }

    /// A worker thread's copy of an evaluator (`RuleEvaluator(copying:)`) gives the same
    /// triggers and evidence as the original on random conditions and visits, with and without a
    /// resumed horizon, and holds masks of its own: equal bits, other storage.
    func testAWorkerCopyGivesTheSameTriggersAndSharesNoMask() {
        var rng = SplitMix(seed: 515)
        var masks = 0
        for round in 0..<600 {
            let t0 = Int64(rng.next() % 20), tEnd = t0 + Int64(rng.next() % 120)
            let visits = randomVisits(&rng, t0, tEnd)
            let conditions = (0..<(1 + Int(rng.next() % 3))).map { _ in randomCondition(&rng, depth: 0) }
            let original = RuleEvaluator(campaign: campaign(regions: regions, conditions: conditions), campaignIndex: 2)
            let copy = RuleEvaluator(copying: original)
            XCTAssertEqual(copy.campaignIndex, 2)
            let from = t0 + Int64(rng.next() % UInt64(tEnd - t0 + 2))
            for f in [Int64.min, from] {
                let a = original.triggers(visits: visits, t0: t0, tEnd: tEnd, from: f)
                let b = copy.triggers(visits: visits, t0: t0, tEnd: tEnd, from: f)
                XCTAssertEqual(a.map(\.time), b.map(\.time), "round \(round): \(conditions) \(visits)")
                XCTAssertEqual(a.map(\.rule), b.map(\.rule), "round \(round)")
                XCTAssertEqual(a.map(\.evidence), b.map(\.evidence), "round \(round)")
            }
            func leafMasks(_ c: CompiledCondition) -> [RegionMask] {
                switch c {
                case .inside(let e): return [e.mask]
                case .visited(let e): return [e.mask]
                case .dwelled(let e): return [e.mask]
                case .sequence(let e): return e.masks
                case .during: return []
                case .all(let parts), .any(let parts): return parts.flatMap(leafMasks)
                case .not(let inner): return leafMasks(inner)
                }
            }
            for (x, y) in zip(original.conditions.flatMap(leafMasks), copy.conditions.flatMap(leafMasks)) {
                masks += 1
                XCTAssertEqual(x.bits, y.bits)
                XCTAssertEqual(x.ids, y.ids)
                x.bits.withUnsafeBufferPointer { a in
                    y.bits.withUnsafeBufferPointer { b in XCTAssertNotEqual(a.baseAddress, b.baseAddress) }
                }
            }
        }
        XCTAssertGreaterThan(masks, 1_000)
    }

    func testTriggersAndEvidenceAgainstTheDefinitions() {
        var rng = SplitMix(seed: 2026)
        var fromRng = SplitMix(seed: 77)  // its own, so that the rounds are those of before
        for round in 0..<600 {
            let t0 = Int64(rng.next() % 20), tEnd = t0 + Int64(rng.next() % 120)
            let visits = randomVisits(&rng, t0, tEnd)
            let cond = randomCondition(&rng, depth: 0)
            let active = rng.next() % 3 == 0 ? ActiveWindow(fromMs: Int64(rng.next() % 60), untilMs: 60 + Int64(rng.next() % 80)) : nil
            let c = campaign(regions: regions, conditions: [cond], active: active)
            let triggers = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: t0, tEnd: tEnd)
            func ruleHolds(_ t: Int64) -> Bool {
                t >= t0 && t <= tEnd && (active.map { t >= ($0.fromMs ?? Int64.min) && t < ($0.untilMs ?? Int64.max) } ?? true)
                    && holds(cond, t, visits, t0, tEnd)
            }
            let expected = (t0...tEnd).filter { ruleHolds($0) && ($0 == t0 || !ruleHolds($0 - 1)) }
            XCTAssertEqual(triggers.map(\.time), expected, "round \(round): \(cond) \(visits)")
            // A resumed user's triggers (`from`: the old horizon) are the whole timeline's at or
            // after it, whichever rules are skipped as unable to hold there.
            let from = t0 + Int64(fromRng.next() % UInt64(tEnd - t0 + 2))
            let resumed = RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: t0, tEnd: tEnd, from: from)
            XCTAssertEqual(resumed.map(\.time), expected.filter { $0 >= from }, "round \(round), from \(from): \(cond) \(visits)")
            XCTAssertEqual(resumed.map(\.evidence), triggers.filter { $0.time >= from }.map(\.evidence), "round \(round), from \(from)")
            // Evidence (semantics 4.4) equals the definition when no sequence is involved (a
            // sequence may pick any covering match); always sorted by enter, then region, without repeats.
            for trigger in triggers {
                for (x, y) in zip(trigger.evidence, trigger.evidence.dropFirst()) {
                    XCTAssertLessThanOrEqual(visits[x].enter, visits[y].enter)
                    if visits[x].enter == visits[y].enter { XCTAssertLessThanOrEqual(ids[Int(visits[x].region)], ids[Int(visits[y].region)]) }
                }
                XCTAssertEqual(Set(trigger.evidence).count, trigger.evidence.count)
                if !containsSequence(cond) {
                    XCTAssertEqual(Set(trigger.evidence), evidence(cond, trigger.time, visits, t0, tEnd), "round \(round): \(cond)")
                }
            }
        }
    }
}
