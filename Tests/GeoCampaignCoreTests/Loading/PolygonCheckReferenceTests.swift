import XCTest
@testable import GeoCampaignCore

/// The ring check against the one it replaced (`ReferencePolygonCheck`), on seeded random rings
/// of every kind the loading meets: the same first crossing and the same problems for each.
final class PolygonCheckReferenceTests: XCTestCase {
    /// Rings as written (outer first, then holes), of many kinds.
    private func corpus(seed: UInt64, count: Int) -> [[[Coordinate]]] {
        var rng = SplitMix64(seed: seed)
        func star(_ n: Int, _ cx: Double, _ cy: Double, _ r: Double, jitter: Double = 0.85) -> [Coordinate] {
            (0..<n).map { i in
                let a = 2 * Double.pi * Double(i) / Double(n), s = r * Double.random(in: jitter...1.0, using: &rng)
                return Coordinate(lat: cy + s * sin(a), lon: cx + s * cos(a))
            }
        }
        func grid(_ n: Int, _ steps: Int, lon0: Double = 0, lat0: Double = 0, size: Double = 1) -> [Coordinate] {
            (0..<n).map { _ in
                Coordinate(lat: lat0 + size * Double(Int.random(in: 0...steps, using: &rng)) / Double(steps),
                           lon: lon0 + size * Double(Int.random(in: 0...steps, using: &rng)) / Double(steps))
            }
        }
        /// Duplicate points, a closing point, spikes (out and back), -0 for 0.
        func roughen(_ ring: [Coordinate]) -> [Coordinate] {
            var out: [Coordinate] = []
            for p in ring {
                var p = p
                if p.lon == 0, Bool.random(using: &rng) { p.lon = -0.0 }
                if p.lat == 0, Bool.random(using: &rng) { p.lat = -0.0 }
                out.append(p)
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: out.append(p)
                case 1:
                    let q = Coordinate(lat: p.lat + Double.random(in: -0.1...0.1, using: &rng), lon: p.lon + Double.random(in: -0.1...0.1, using: &rng))
                    out += [q, p]
                default: break
                }
            }
            if Bool.random(using: &rng), let f = out.first { out.append(f) }
            return out
        }
        var all: [[[Coordinate]]] = []
        for trial in 0..<count {
            var rings: [[Coordinate]]
            switch trial % 10 {
            case 0:
                // The bench's city polygons: 32-gons of about 20 m.
                rings = [star(Int.random(in: 4...64, using: &rng), -121.8, 37.6, 0.0002)]
            case 1:
                // Twisted: two points swapped.
                var r = star(Int.random(in: 4...64, using: &rng), 13.4, 52.5, 0.001)
                let k = Int.random(in: 0..<(r.count - 1), using: &rng)
                r.swapAt(k, Int.random(in: (k + 1)..<r.count, using: &rng))
                rings = [r]
            case 2:
                // A coarse grid: collinear overlaps, touching and doubling-back edges.
                rings = [grid(Int.random(in: 3...40, using: &rng), Int.random(in: 2...12, using: &rng))]
            case 3:
                // Duplicates, spikes and -0 around the origin.
                rings = [roughen(grid(Int.random(in: 3...24, using: &rng), Int.random(in: 2...6, using: &rng), lon0: -0.5, lat0: -0.5))]
            case 4:
                // Holes, some crossing or touching the outline or each other.
                rings = [star(Int.random(in: 8...48, using: &rng), 0, 0, 1)]
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    rings.append(star(Int.random(in: 3...12, using: &rng), Double.random(in: -0.9...0.9, using: &rng),
                                      Double.random(in: -0.9...0.9, using: &rng), Double.random(in: 0.02...0.3, using: &rng)))
                }
            case 5:
                // A square shell with grid holes that share its vertices and edges.
                let shell = [Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 1), Coordinate(lat: 1, lon: 1), Coordinate(lat: 1, lon: 0)]
                rings = [roughen(shell)]
                for _ in 0..<Int.random(in: 1...3, using: &rng) { rings.append(roughen(grid(Int.random(in: 3...6, using: &rng), 4))) }
            case 6:
                // Near and across the antimeridian (too wide when both sides are used).
                let side = Bool.random(using: &rng)
                rings = [grid(Int.random(in: 3...20, using: &rng), 8, lon0: side ? 179 : -180, lat0: 10, size: 1)]
                if Bool.random(using: &rng) { rings[0].append(Coordinate(lat: 10.5, lon: side ? -179.5 : 179.5)) }
            case 7:
                // Large rings: smooth (many edges, few runs) and random (many runs, many pairs).
                rings = [Bool.random(using: &rng) ? star(Int.random(in: 65...300, using: &rng), 8, 47, 0.1, jitter: 0.99)
                                                  : grid(Int.random(in: 65...200, using: &rng), 1_000)]
                if Bool.random(using: &rng) {
                    let k = Int.random(in: 0..<(rings[0].count - 1), using: &rng)
                    rings[0].swapAt(k, k + 1)
                }
            case 8:
                // Degenerate: few points, rings of 1 or 2 points among others.
                rings = (0..<Int.random(in: 1...3, using: &rng)).map { _ in roughen(grid(Int.random(in: 1...4, using: &rng), 2)) }
            default:
                // Edges meeting at rounding distance: a star of 1e-9 degrees on a large offset.
                rings = [star(Int.random(in: 5...40, using: &rng), 179.999999, -0.000001, 1e-9, jitter: 0.3)]
            }
            all.append(rings)
        }
        return all
    }

    private func messages(_ problems: [PolygonCheck.Problem]) -> [String] {
        problems.map { $0.message(subject: "p") }
    }

    /// Rings of the corpus where `candidate` finds another first crossing than the new check
    /// (on the normalized rings, every pair of sizes), or other problems.
    private func mismatches(_ corpus: [[[Coordinate]]], _ variant: ReferencePolygonCheck.Variant) -> (crossings: Int, problems: Int) {
        var crossings = 0, problems = 0
        // The edges in memory reused from ring to ring (as an import's decoding thread does)
        // in the checks of the rings as written, in the call's own memory elsewhere.
        let scratch = PolygonCheck.Scratch()
        for written in corpus {
            let rings = written.map(ReferencePolygonCheck.normalizedPoints)
            let expected = ReferencePolygonCheck.firstCrossing(rings, variant: variant)
            for pairwise in [0, 8, Int.max] where PolygonCheck.firstCrossing(rings, pairwiseUpTo: pairwise) != expected {
                crossings += 1
            }
            // The rings as written too (duplicates and closing points make zero-length edges).
            if PolygonCheck.firstCrossing(written, pairwiseUpTo: 0, scratch: scratch) != ReferencePolygonCheck.firstCrossing(written, variant: variant) {
                crossings += 1
            }
            let new = PolygonCheck.check(written, scratch: scratch), old = ReferencePolygonCheck.check(written, variant: variant)
            if messages(new.problems) != messages(old.problems) || new.normalized != old.normalized { problems += 1 }
        }
        return (crossings, problems)
    }

    func testSameFirstCrossingAndProblemsAsTheReference() {
        let rings = corpus(seed: 2_026_12_02, count: 4_000)
        let got = mismatches(rings, .exact)
        XCTAssertEqual(got.crossings, 0)
        XCTAssertEqual(got.problems, 0)
        // The corpus has clean rings, crossing ones and every kind of problem.
        var kinds: [String: Int] = [:]
        for written in rings {
            let problems = ReferencePolygonCheck.check(written).problems
            if problems.isEmpty { kinds["clean", default: 0] += 1 }
            for p in problems {
                switch p {
                case .crossing: kinds["crossing", default: 0] += 1
                case .tooFewPoints: kinds["few", default: 0] += 1
                case .tooWide: kinds["wide", default: 0] += 1
                case .holeOutside: kinds["outside", default: 0] += 1
                }
            }
        }
        for kind in ["clean", "crossing", "few", "wide", "outside"] {
            XCTAssertGreaterThan(kinds[kind, default: 0], 20, kind)
        }
    }

    /// Negative controls: the same comparison tells a reference that reports the last crossing
    /// instead of the first, or that skips boxes that only touch, from the new check.
    func testTheComparisonTellsABrokenReference() {
        let rings = corpus(seed: 7, count: 1_000)
        let last = mismatches(rings, .lastPair), strict = mismatches(rings, .strictBoxes)
        XCTAssertGreaterThan(last.crossings, 100)
        XCTAssertGreaterThan(last.problems, 100)
        XCTAssertGreaterThan(strict.crossings, 10)
        XCTAssertGreaterThan(strict.problems, 10)
    }

    /// The sort of the sweep's keys sorts any input: sorted, reversed, a ring's rise and fall,
    /// saw teeth, random.
    func testSortKeys() {
        var rng = SplitMix64(seed: 99)
        var unsorted = 0
        for n in 0..<300 {
            for pattern in 0..<5 {
                var values = (0..<n).map { UInt64($0) * 3 + 1 }
                switch pattern {
                case 1: values.reverse()
                case 2:
                    let turn = n == 0 ? 0 : Int.random(in: 0..<n, using: &rng)
                    values = Array(values[turn...].reversed()) + values[..<turn]
                    if n > 0 { values.rotate(by: Int.random(in: 0..<n, using: &rng)) }
                case 3: values = values.enumerated().sorted { ($0.offset % 7, $0.element) < ($1.offset % 7, $1.element) }.map(\.element)
                case 4: values.shuffle(using: &rng)
                default: break
                }
                if values != values.sorted() { unsorted += 1 }
                var keys = values
                let scratch = [UInt64](repeating: 0, count: n)
                var scratchCopy = scratch
                let got = keys.withUnsafeMutableBufferPointer { k in
                    scratchCopy.withUnsafeMutableBufferPointer { s in Array(PolygonCheck.sortKeys(k, scratch: s)) }
                }
                XCTAssertEqual(got, values.sorted(), "n \(n) pattern \(pattern)")
            }
        }
        XCTAssertGreaterThan(unsorted, 1_000)
    }
}

private extension Array {
    mutating func rotate(by k: Int) {
        self = Array(self[k...] + self[..<k])
    }
}
