import XCTest
@testable import GeoCampaignCore

/// Every figure of measurement.md 3 against values worked out by hand from its formulas
/// (z = 1.959964), and each case where a figure is absent.
final class MeasurementLiftTests: XCTestCase {
    private func lift(_ nT: Int, _ cT: Int, _ nH: Int, _ cH: Int) -> Lift {
        Lift(treated: ArmCount(n: nT, converted: cT), holdout: ArmCount(n: nH, converted: cH))
    }

    private func near(_ a: Double?, _ b: Double, _ what: String, line: UInt = #line) {
        guard let a else { return XCTFail("\(what) is absent, expected \(b)", line: line) }
        XCTAssertEqual(a, b, accuracy: 1e-9 * max(1, abs(b)), what, line: line)
    }

    func testEveryFigureOfAnOrdinaryCase() {
        // p_T = 60/200 = 0.3, p_H = 20/100 = 0.2.
        let l = lift(200, 60, 100, 20)
        XCTAssertEqual(l.treated.rate, 0.3)
        XCTAssertEqual(l.holdout.rate, 0.2)
        near(l.absoluteLift, 0.1, "absolute lift = 0.3 - 0.2")
        // se = sqrt(0.3*0.7/200 + 0.2*0.8/100) = sqrt(0.00265) = 0.0514781507...
        near(l.absoluteCI95?.low, -0.000895322168247, "absolute ci low")
        near(l.absoluteCI95?.high, 0.200895322168247, "absolute ci high")
        near(l.relativeLift, 0.5, "relative lift = 0.3 / 0.2 - 1")
        // se(log) = sqrt(1/60 - 1/200 + 1/20 - 1/100) = sqrt(0.0516667)
        near(l.relativeCI95?.low, -0.039249610781366, "relative ci low")
        near(l.relativeCI95?.high, 1.341919425949852, "relative ci high")
        near(l.incrementalConversions, 20, "incremental = 0.1 * 200")
        // pooled p = 80/300, z = 0.1 / sqrt(p(1-p)(1/200 + 1/100)) = 1.84637
        near(l.pValue, 0.064838156992066, "p-value")
        XCTAssertFalse(l.enoughData, "c_H = 20 < 25")
    }

    func testALargeSignificantCase() {
        let l = lift(1000, 400, 1000, 300)
        near(l.absoluteLift, 0.1, "absolute lift")
        near(l.absoluteCI95?.low, 0.058422884941555, "ci low")
        near(l.absoluteCI95?.high, 0.141577115058445, "ci high")
        near(l.relativeLift, 1.0 / 3.0, "relative")
        near(l.relativeCI95?.low, 0.180966322391791, "relative ci low")
        near(l.relativeCI95?.high, 0.505358572950053, "relative ci high")
        near(l.pValue, 2.7579057770843e-06, "p-value")
        XCTAssertTrue(l.enoughData)
    }

    func testTheWorkedExampleOfReport1() {
        // car-shoppers of ../shared/spec/examples/report-1: 2 of 4 treated, 0 of 1 held out.
        let l = lift(4, 2, 1, 0)
        near(l.absoluteCI95?.low, 0.01000899999999999, "ci low = 0.5 - 1.959964 * 0.25")
        near(l.absoluteCI95?.high, 0.9899910000000001, "ci high")
        near(l.pValue, 0.3613104285261788, "p-value")
        near(l.incrementalConversions, 2, "incremental")
    }

    func testEnoughDataNeedsAHundredUsersAndTwentyFiveConversionsPerGroup() {
        let cases: [(Int, Int, Int, Int, Bool)] = [
            (100, 25, 100, 25, true), (99, 25, 100, 25, false), (100, 25, 99, 25, false),
            (100, 24, 100, 25, false), (100, 25, 100, 24, false), (5000, 2000, 100, 25, true),
        ]
        for (nT, cT, nH, cH, want) in cases {
            XCTAssertEqual(lift(nT, cT, nH, cH).enoughData, want, "\(nT)/\(cT) vs \(nH)/\(cH)")
        }
        let equal = lift(100, 25, 100, 25)
        near(equal.absoluteLift, 0, "no difference")
        near(equal.absoluteCI95?.high, 0.120022792855607, "ci half width = 1.959964 * sqrt(2 * 0.1875 / 100)")
        near(equal.pValue, 1, "z = 0")
    }

    func testNoHoldoutConversionLeavesOutTheRelativeFigures() {
        let l = lift(120, 30, 110, 0)
        XCTAssertEqual(l.holdout.rate, 0)
        near(l.absoluteLift, 0.25, "absolute")
        near(l.absoluteCI95?.low, 0.172525620350822, "ci low: the holdout adds no variance")
        XCTAssertNil(l.relativeLift, "p_T / 0")
        XCTAssertNil(l.relativeCI95)
        near(l.pValue, 1.8700657022919e-08, "p-value")
        near(l.incrementalConversions, 30, "incremental")
    }

    func testNoTreatedConversionKeepsTheRelativeLiftButNotItsInterval() {
        let l = lift(120, 0, 110, 30)
        near(l.relativeLift, -1, "0 / p_H - 1")
        XCTAssertNil(l.relativeCI95, "ln 0")
        near(l.absoluteCI95?.high, -0.189500187022113, "ci high")
        near(l.pValue, 8.524048134007e-10, "p-value")
    }

    func testNoConversionAtAllHasNoPValue() {
        let l = lift(50, 0, 40, 0)
        near(l.absoluteLift, 0, "absolute")
        XCTAssertEqual(l.absoluteCI95, ConfidenceInterval(low: 0, high: 0))
        XCTAssertNil(l.relativeLift)
        XCTAssertNil(l.relativeCI95)
        XCTAssertNil(l.pValue, "pooled p = 0: the denominator is 0")
        near(l.incrementalConversions, 0, "incremental")
    }

    func testEveryoneConvertedHasNoPValue() {
        let l = lift(10, 10, 5, 5)
        near(l.relativeLift, 0, "1 / 1 - 1")
        XCTAssertEqual(l.relativeCI95, ConfidenceInterval(low: 0, high: 0), "1/c - 1/n = 0 in both groups")
        XCTAssertNil(l.pValue, "pooled p = 1: the denominator is 0")
    }

    func testAnEmptyArmLeavesOutEveryFigure() {
        for l in [lift(12, 3, 0, 0), lift(0, 0, 7, 2), lift(0, 0, 0, 0)] {
            XCTAssertTrue(l.treated.rate == nil || l.holdout.rate == nil)
            XCTAssertNil(l.absoluteLift)
            XCTAssertNil(l.absoluteCI95)
            XCTAssertNil(l.relativeLift)
            XCTAssertNil(l.relativeCI95)
            XCTAssertNil(l.incrementalConversions)
            XCTAssertNil(l.pValue)
            XCTAssertFalse(l.enoughData)
        }
        XCTAssertEqual(lift(12, 3, 0, 0).treated.rate, 0.25, "the other arm's rate stays")
    }

    func testTwoSidedPValueOfTheStandardNormal() {
        XCTAssertEqual(StandardNormal.twoSidedP(0), 1, accuracy: 1e-15)
        XCTAssertEqual(StandardNormal.twoSidedP(1.959964), 0.05, accuracy: 1e-6)
        XCTAssertEqual(StandardNormal.twoSidedP(-1.959964), 0.05, accuracy: 1e-6, "two-sided: the sign does not matter")
        XCTAssertEqual(StandardNormal.cdf(0), 0.5, accuracy: 1e-15)
        XCTAssertEqual(StandardNormal.cdf(1), 0.841344746068543, accuracy: 1e-12)
        XCTAssertEqual(StandardNormal.twoSidedP(10), 1.523970604832e-23, accuracy: 1e-33, "no cancellation far out")
    }
}
