import XCTest
@testable import GeoCampaignCore

/// Precedence: hysteresis/confirm region > campaign > settings > default; max_accuracy/max_gap
/// campaign > settings > default (semantics.md 2).
final class CrossingParametersTests: XCTestCase {
    struct Case {
        var name: String
        var region: (Double?, Int64?)
        var campaign: Tracking
        var settings: Tracking
        var want: (h: Double, confirm: Int64, acc: Double, gap: Int64)
    }

    static let cases: [Case] = [
        Case(name: "defaults", region: (nil, nil), campaign: Tracking(), settings: Tracking(),
             want: (20, 20_000, 100, 1_800_000)),
        Case(name: "settings over defaults", region: (nil, nil), campaign: Tracking(),
             settings: Tracking(hysteresisM: 15, confirmMs: 10_000, maxAccuracyM: 50, maxGapMs: 600_000),
             want: (15, 10_000, 50, 600_000)),
        Case(name: "campaign over settings", region: (nil, nil),
             campaign: Tracking(hysteresisM: 30, confirmMs: 5_000, maxAccuracyM: 40, maxGapMs: 300_000),
             settings: Tracking(hysteresisM: 15, confirmMs: 10_000, maxAccuracyM: 50, maxGapMs: 600_000),
             want: (30, 5_000, 40, 300_000)),
        Case(name: "region over campaign", region: (8, 60_000),
             campaign: Tracking(hysteresisM: 30, confirmMs: 5_000), settings: Tracking(hysteresisM: 15, confirmMs: 10_000),
             want: (8, 60_000, 100, 1_800_000)),
        Case(name: "each field falls back on its own", region: (nil, 0),
             campaign: Tracking(maxGapMs: 120_000), settings: Tracking(hysteresisM: 12, maxAccuracyM: 65),
             want: (12, 0, 65, 120_000)),
    ]

    func testPrecedenceTable() {
        for c in Self.cases {
            let region = Region(id: "r", shape: .circle(center: Coordinate(lat: 0, lon: 0), radiusM: 100),
                                hysteresisM: c.region.0, confirmMs: c.region.1)
            let plain = Region(id: "p", shape: .circle(center: Coordinate(lat: 0, lon: 1), radiusM: 100))
            let p = CrossingParameters(campaign: Campaign(id: "c", tracking: c.campaign, regions: [region, plain], rules: [], offers: []),
                                       settings: Settings(tracking: c.settings))
            XCTAssertEqual(p.hysteresisM[0], c.want.h, c.name)
            XCTAssertEqual(p.confirmMs[0], c.want.confirm, c.name)
            XCTAssertEqual(p.maxAccuracyM, c.want.acc, c.name)
            XCTAssertEqual(p.maxGapMs, c.want.gap, c.name)
            // A region without overrides takes the campaign level.
            let level = c.campaign.over(c.settings).over(.defaults)
            XCTAssertEqual(p.hysteresisM[1], level.hysteresisM, c.name)
            XCTAssertEqual(p.confirmMs[1], level.confirmMs, c.name)
        }
    }

    /// The same track seen by regions with different overrides: only the precedence differs.
    func testPrecedenceChangesWhatTheEngineSees() {
        typealias S = CrossingTestSupport
        let shape = Region.Shape.circle(center: S.center, radiusM: S.radiusM)
        let campaign = Campaign(id: "c", tracking: Tracking(confirmMs: 30_000), regions: [
            Region(id: "campaign-confirm", shape: shape),
            Region(id: "region-confirm-0", shape: shape, confirmMs: 0),
            Region(id: "region-h-40", shape: shape, hysteresisM: 40),
        ], rules: [], offers: [])
        let settings = Settings(tracking: Tracking(hysteresisM: 25, confirmMs: 5_000))
        // d = 30: IN for h 25, BAND for h 40. Fixes at 0, 10, 30 s.
        let fixes = [S.fix(0, depth: 30), S.fix(10, depth: 30), S.fix(30, depth: 30)]
        let visits = CrossingEngine(campaign: campaign, settings: settings).visits(fixes: fixes, tEnd: S.ms(30))
        XCTAssertEqual(visits, [
            Visit(region: 0, enter: 0, exit: nil, lastSeen: 30_000, reason: nil),   // confirm 30 s from the campaign
            Visit(region: 1, enter: 0, exit: nil, lastSeen: 30_000, reason: nil),   // confirm 0 from the region
        ])
        let short = CrossingEngine(campaign: campaign, settings: settings).visits(fixes: Array(fixes.prefix(2)), tEnd: S.ms(10))
        XCTAssertEqual(short.map(\.region), [1], "campaign confirm 30 s, not settings 5 s, applies to region 0")
    }
}
