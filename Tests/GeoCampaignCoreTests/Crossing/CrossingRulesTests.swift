import XCTest
@testable import GeoCampaignCore

/// Table-driven tests of semantics.md 2.3 on one 100 m circle (h 20 m, confirm 20 s, max_gap 30 min,
/// max_accuracy 100 m unless a case says otherwise). Depths: IN = +50 m, BAND = 0, OUT = -50 m.
final class CrossingRulesTests: XCTestCase {
    typealias S = CrossingTestSupport
    static let IN = 50.0, BAND = 0.0, OUT = -50.0

    /// An expected visit, times in seconds.
    struct V: Equatable, CustomStringConvertible {
        var enter: Double, exit: Double?, lastSeen: Double, reason: ExitReason?
        static func closed(_ enter: Double, _ exit: Double, _ reason: ExitReason) -> V { V(enter: enter, exit: exit, lastSeen: exit, reason: reason) }
        static func open(_ enter: Double, lastSeen: Double) -> V { V(enter: enter, exit: nil, lastSeen: lastSeen, reason: nil) }
        var visit: Visit { Visit(region: 0, enter: S.ms(enter), exit: exit.map(S.ms), lastSeen: S.ms(lastSeen), reason: reason) }
        var description: String { "enter \(enter) exit \(exit.map { "\($0)" } ?? "open") lastSeen \(lastSeen) \(reason?.rawValue ?? "")" }
    }

    struct Case {
        var name: String
        var tracking = Tracking()
        /// (seconds, depth, accuracy)
        var fixes: [(Double, Double, Double)]
        /// Defaults to the last fix's time.
        var tEnd: Double? = nil
        var expected: [V]
    }

    static func f(_ t: Double, _ d: Double, acc: Double = .nan) -> (Double, Double, Double) { (t, d, acc) }

    static func jitter(from: Double, to: Double, step: Double, amplitude: Double) -> [(Double, Double, Double)] {
        var out: [(Double, Double, Double)] = []
        var t = from, sign = 1.0
        while t <= to { out.append((t, sign * amplitude, .nan)); sign = -sign; t += step }
        return out
    }

    static let cases: [Case] = [
        // Enter candidates and their confirmation.
        Case(name: "a fix exactly at t0 + confirm confirms the enter at t0",
             fixes: [f(0, IN), f(20, IN)], expected: [.open(0, lastSeen: 20)]),
        Case(name: "a fix 1 ms before t0 + confirm does not confirm",
             fixes: [f(0, IN), f(19.999, IN)], expected: []),
        Case(name: "an OUT fix before confirmation drops the candidate; the next IN starts a new one",
             fixes: [f(0, IN), f(19.999, IN), f(25, OUT), f(30, IN), f(50, IN)], expected: [.open(30, lastSeen: 50)]),
        Case(name: "BAND fixes hold an enter candidate and can confirm it",
             fixes: [f(0, IN), f(10, BAND), f(20, BAND)], expected: [.open(0, lastSeen: 20)]),
        Case(name: "an OUT fix at exactly t0 + confirm drops the candidate (both ends included)",
             fixes: [f(0, IN), f(20, OUT), f(40, BAND)], expected: []),
        Case(name: "after a drop, BAND does not start a candidate, the next IN does",
             fixes: [f(0, IN), f(10, OUT), f(15, BAND), f(18, IN), f(30, BAND), f(38, IN)], expected: [.open(18, lastSeen: 38)]),
        Case(name: "BAND fixes alone never enter",
             fixes: [f(0, BAND), f(30, BAND), f(60, BAND)], expected: []),
        Case(name: "a later IN fix does not restart a pending candidate",
             fixes: [f(0, IN), f(10, IN), f(20, IN)], expected: [.open(0, lastSeen: 20)]),
        Case(name: "a fix at exactly t0 does not confirm its own candidate",
             fixes: [f(0, IN), f(0, IN), f(10, OUT)], expected: []),
        Case(name: "per-region confirm 45 s needs a fix at t0 + 45 s",
             tracking: Tracking(confirmMs: 45_000),
             fixes: [f(0, IN), f(20, IN), f(44.999, IN), f(45, BAND)], expected: [.open(0, lastSeen: 45)]),

        // Exit candidates.
        Case(name: "an exit is confirmed at t0 + confirm, exit at t0, reason left",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(120, OUT)], expected: [.closed(0, 100, .left)]),
        Case(name: "BAND fixes hold an exit candidate and can confirm it",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(110, BAND), f(120, BAND)], expected: [.closed(0, 100, .left)]),
        Case(name: "an IN fix drops an exit candidate; a later OUT starts a new one",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(105, BAND), f(110, IN), f(200, OUT), f(219.999, OUT), f(220, OUT)],
             expected: [.closed(0, 200, .left)]),
        Case(name: "an IN fix at exactly t0 + confirm drops the exit candidate",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(120, IN), f(130, IN)], expected: [.open(0, lastSeen: 130)]),
        Case(name: "after a confirmed exit a new visit needs a new IN candidate",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(120, OUT), f(130, IN), f(150, IN)],
             expected: [.closed(0, 100, .left), .open(130, lastSeen: 150)]),

        // confirm 0.
        Case(name: "confirm 0 enters and exits at the candidate fix itself",
             tracking: Tracking(confirmMs: 0),
             fixes: [f(0, BAND), f(5, IN), f(7, BAND), f(9, OUT), f(12, IN), f(12, OUT)],
             expected: [.closed(5, 9, .left), .closed(12, 12, .left)]),
        Case(name: "confirm 0: BAND holds nothing, OUT exits at once",
             tracking: Tracking(confirmMs: 0),
             fixes: [f(0, IN), f(5, BAND), f(9, OUT), f(10, BAND)], expected: [.closed(0, 9, .left)]),

        // Equal times keep input order.
        Case(name: "equal times: OUT then IN at the same instant drops the exit candidate",
             fixes: [f(0, IN), f(20, IN), f(100, OUT), f(100, IN), f(119, OUT), f(130, OUT)], expected: [.open(0, lastSeen: 119)]),
        Case(name: "equal times: IN then OUT at the same instant keeps the exit candidate",
             fixes: [f(0, IN), f(20, IN), f(100, IN), f(100, OUT), f(119, OUT), f(130, OUT)], expected: [.closed(0, 100, .left)]),

        // Gaps between used fixes.
        Case(name: "a gap while inside exits at the last IN or BAND fix, reason gap; the next segment starts outside",
             fixes: [f(0, IN), f(20, IN), f(60, BAND), f(1860.001, IN), f(1880.001, IN)],
             expected: [.closed(0, 60, .gap), .open(1860.001, lastSeen: 1880.001)]),
        Case(name: "a gap with a pending exit candidate exits at the candidate, reason gap",
             fixes: [f(0, IN), f(20, IN), f(60, BAND), f(70, OUT), f(80, BAND), f(1900, OUT)],
             expected: [.closed(0, 70, .gap)]),
        Case(name: "fixes exactly max_gap apart are not a gap",
             fixes: [f(0, IN), f(20, IN), f(1820, IN)], expected: [.open(0, lastSeen: 1820)]),
        Case(name: "fixes max_gap + 1 ms apart are a gap",
             fixes: [f(0, IN), f(20, IN), f(1820.001, IN)], expected: [.closed(0, 20, .gap)]),
        Case(name: "an enter candidate does not survive a gap",
             fixes: [f(0, IN), f(1800.001, IN), f(1810, OUT)], expected: []),
        Case(name: "campaign max_gap 5 min cuts where the default would not",
             tracking: Tracking(maxGapMs: 300_000),
             fixes: [f(0, IN), f(20, IN), f(320.001, IN), f(340.001, IN)],
             expected: [.closed(0, 20, .gap), .open(320.001, lastSeen: 340.001)]),

        // The silence after the last used fix, against Tend.
        Case(name: "Tend more than max_gap after the last used fix closes the visit with reason gap",
             fixes: [f(0, IN), f(20, IN), f(60, BAND)], tEnd: 1860.001, expected: [.closed(0, 60, .gap)]),
        Case(name: "Tend exactly max_gap after the last used fix leaves the visit open",
             fixes: [f(0, IN), f(20, IN), f(60, BAND)], tEnd: 1860, expected: [.open(0, lastSeen: 60)]),
        Case(name: "Tend gap with a pending exit candidate closes at the candidate",
             fixes: [f(0, IN), f(20, IN), f(60, OUT)], tEnd: 2000, expected: [.closed(0, 60, .gap)]),
        Case(name: "open at the end with a pending exit candidate: last_seen is the candidate",
             fixes: [f(0, IN), f(20, IN), f(50, BAND), f(100, OUT), f(110, OUT)], expected: [.open(0, lastSeen: 100)]),
        Case(name: "open at the end: last_seen is the last IN or BAND fix",
             fixes: [f(0, IN), f(20, IN), f(50, BAND)], expected: [.open(0, lastSeen: 50)]),
        Case(name: "a candidate left unconfirmed at the end enters nothing",
             fixes: [f(0, OUT), f(10, IN), f(20, BAND)], tEnd: 3000, expected: []),

        // Accuracy.
        Case(name: "a fix with accuracy worse than max_accuracy is ignored",
             fixes: [f(0, IN), f(10, OUT, acc: 100.5), f(20, IN)], expected: [.open(0, lastSeen: 20)]),
        Case(name: "a fix with accuracy equal to max_accuracy is used",
             fixes: [f(0, IN), f(10, OUT, acc: 100), f(20, IN)], expected: []),
        Case(name: "campaign max_accuracy 30 m ignores a 35 m fix",
             tracking: Tracking(maxAccuracyM: 30),
             fixes: [f(0, IN, acc: 5), f(10, OUT, acc: 35), f(20, IN, acc: 30)], expected: [.open(0, lastSeen: 20)]),
        Case(name: "ignored fixes do not bridge a gap",
             fixes: [f(0, IN), f(20, IN), f(1000, IN, acc: 500), f(1900, IN)], expected: [.closed(0, 20, .gap)]),
        Case(name: "Tend may be an ignored fix, and its silence still counts",
             fixes: [f(0, IN), f(20, IN), f(2000, IN, acc: 500)], expected: [.closed(0, 20, .gap)]),
        Case(name: "an ignored fix as Tend within max_gap leaves the visit open",
             fixes: [f(0, IN), f(20, IN), f(1000, OUT, acc: 500)], expected: [.open(0, lastSeen: 20)]),

        // Jitter across the boundary.
        Case(name: "jitter of +-(h - 1 m) across the boundary produces no events",
             fixes: jitter(from: 0, to: 600, step: 5, amplitude: 19), expected: []),
        Case(name: "jitter of +-(h - 1 m) while inside neither exits nor re-enters",
             fixes: [f(0, IN), f(20, IN)] + jitter(from: 25, to: 600, step: 5, amplitude: 19), expected: [.open(0, lastSeen: 600)]),
        Case(name: "jitter with h 5 m: +-4 m is BAND, +-6 m crosses",
             tracking: Tracking(hysteresisM: 5),
             fixes: jitter(from: 0, to: 100, step: 5, amplitude: 4) + [f(110, 6), f(120, 6), f(130, -4), f(140, -6), f(160, -6)],
             expected: [.closed(110, 140, .left)]),
        Case(name: "hysteresis 0: the boundary itself is IN",
             tracking: Tracking(hysteresisM: 0, confirmMs: 0),
             fixes: [f(0, -1), f(10, 0), f(20, -0.5)], expected: [.closed(10, 20, .left)]),
    ]

    func testSemantics23Table() {
        XCTAssertGreaterThan(Self.cases.count, 30)
        for c in Self.cases {
            let engine = CrossingEngine(campaign: S.campaign(tracking: c.tracking), settings: Settings())
            let fixes = c.fixes.map { S.fix($0.0, depth: $0.1, accuracy: $0.2) }
            let tEnd = c.tEnd.map(S.ms) ?? fixes.last?.time ?? 0
            let got = engine.visits(fixes: fixes, tEnd: tEnd)
            XCTAssertEqual(got, c.expected.map(\.visit), "\(c.name): got \(got)")
        }
    }

    func testTestPointsHaveTheIntendedDepth() {
        let g = RegionGeometry(.circle(center: S.center, radiusM: S.radiusM))
        for d in [50.0, 19, 0.5, -0.5, -19, -50] {
            XCTAssertEqual(g.placement(of: S.point(depth: d)).depthM, d, accuracy: 0.001)
        }
        XCTAssertEqual(g.placement(of: S.point(depth: 0)).side, .boundary)
    }
}

/// The worked example of docs/tracking.md, so the picture there stays true.
final class TrackingDocExampleTests: XCTestCase {
    static let track: [(Double, Double)] = [(0, -40), (10, -19), (20, 19), (30, -19), (40, 19), (50, -19), (60, 19), (70, -19),
                                             (80, 19), (90, 40), (100, 40), (110, 40), (120, 19), (130, -19), (140, -40),
                                             (150, -40), (160, -40)]

    func testJitterAtTheDoorThenOneVisit() {
        typealias S = CrossingTestSupport
        let fixes = Self.track.map { S.fix($0.0, depth: $0.1) }
        let visits = CrossingEngine(campaign: S.campaign(), settings: Settings()).visits(fixes: fixes, tEnd: S.ms(160))
        XCTAssertEqual(visits, [Visit(region: 0, enter: 90_000, exit: 140_000, lastSeen: 140_000, reason: .left)])
        let raw = CrossingEngine(campaign: S.campaign(tracking: Tracking(hysteresisM: 0, confirmMs: 0)), settings: Settings())
            .visits(fixes: fixes, tEnd: S.ms(160))
        XCTAssertEqual(raw.map(\.enter), [20_000, 40_000, 60_000, 80_000])
        XCTAssertEqual(raw.map(\.exit), [30_000, 50_000, 70_000, 130_000])
    }
}
