import XCTest
@testable import GeoCampaignCore

final class IntervalSetTests: XCTestCase {
    func testNormalisationMergesOverlapsAndAdjacency() {
        let cases: [(raw: [Interval], expected: [Interval])] = [
            ([], []),
            ([Interval(5, 5)], []),
            ([Interval(5, 3)], []),
            ([Interval(0, 10), Interval(10, 20)], [Interval(0, 20)]),
            ([Interval(10, 20), Interval(0, 5)], [Interval(0, 5), Interval(10, 20)]),
            ([Interval(0, 10), Interval(2, 4)], [Interval(0, 10)]),
            ([Interval(0, 10), Interval(5, Int64.max)], [Interval(0, Int64.max)]),
            ([Interval(0, 1), Interval(1, 2), Interval(3, 4)], [Interval(0, 2), Interval(3, 4)]),
        ]
        for (raw, expected) in cases {
            XCTAssertEqual(IntervalSet(raw).intervals, expected, "\(raw)")
        }
    }

    func testAdjacentIntervalsHaveOneStart() {
        XCTAssertEqual(IntervalSet([Interval(0, 10), Interval(10, 20)]).starts, [0])
        XCTAssertEqual(IntervalSet([Interval(0, 10), Interval(11, 20)]).starts, [0, 11])
    }

    func testTimelineIsClosedAtTend() {
        let domain = IntervalSet.timeline(t0: 100, tEnd: 200)
        XCTAssertEqual(domain, Interval(100, 201))
        // [a, b) holds at Tend iff a <= Tend < b.
        XCTAssertTrue(IntervalSet(start: 200, end: 300).clipped(to: domain).contains(200))
        XCTAssertFalse(IntervalSet(start: 150, end: 200).clipped(to: domain).contains(200))
        XCTAssertEqual(IntervalSet(start: 200, end: 300).clipped(to: domain).starts, [200])
        XCTAssertEqual(IntervalSet.empty.complement(within: domain).intervals, [Interval(100, 201)])
    }

    /// Random sets on a small grid checked instant by instant against Bool arrays.
    func testAlgebraAgainstBruteForceSampling() {
        var rng = SplitMix(seed: 42)
        let size: Int64 = 60
        func randomSet() -> IntervalSet {
            let n = Int(rng.next() % 6)
            return IntervalSet((0..<n).map { _ in
                let a = Int64(rng.next() % UInt64(size)) - 5
                let len = Int64(rng.next() % 15)
                return Interval(a, rng.next() % 10 == 0 ? Int64.max : a + len)
            })
        }
        func member(_ s: IntervalSet, _ t: Int64) -> Bool { s.intervals.contains { $0.contains(t) } }
        for _ in 0..<500 {
            let a = randomSet(), b = randomSet()
            let d0 = Int64(rng.next() % 20), d1 = d0 + Int64(rng.next() % 40)
            let domain = Interval(d0, d1)
            let u = a.union(b), i = a.intersection(b), c = a.complement(within: domain), k = a.clipped(to: domain)
            for s in [a, b, u, i, c, k] { assertNormalised(s) }
            for t in Int64(-10)...(size + 20) {
                XCTAssertEqual(member(u, t), member(a, t) || member(b, t))
                XCTAssertEqual(member(i, t), member(a, t) && member(b, t))
                XCTAssertEqual(member(c, t), domain.contains(t) && !member(a, t))
                XCTAssertEqual(member(k, t), domain.contains(t) && member(a, t))
                XCTAssertEqual(a.contains(t), member(a, t))
                // A start is exactly an instant in the set whose predecessor is not.
                XCTAssertEqual(u.starts.contains(t), member(u, t) && !member(u, t - 1))
            }
        }
    }

    func assertNormalised(_ s: IntervalSet, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(s.intervals, s.intervals.dropFirst()) {
            XCTAssertLessThan(x.end, y.start, "not disjoint and non-adjacent: \(s)", file: file, line: line)
        }
        for x in s.intervals { XCTAssertLessThan(x.start, x.end, file: file, line: line) }
    }
}

/// A small deterministic generator for property tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
