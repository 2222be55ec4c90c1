import XCTest
@testable import GeoCampaignCore

/// The JSON shape of measurement.md 5 and the HTML page's content, on a measurement made by hand.
final class ReportRenderTests: XCTestCase {
    private typealias P = MeasurementPlanTests

    private func measurement(_ l: Lift? = nil, goal: Bool = true) -> (MeasurementResult, CampaignSet) {
        let set = P.campaigns(goal: goal)
        let plan = MeasurementPlan(campaigns: set)
        var tally = plan.emptyTally()
        plan.add(P.outcome(P.treatedIds[0], visits: [P.visit(1, P.t, 20), P.visit(0, P.t + 5 * P.minute, 30)],
                           decisions: [P.decision(P.t, rule: 0, .delivered)]), to: &tally)
        plan.add(P.outcome(P.heldOutIds[0], visits: [P.visit(1, P.t, 20)], decisions: [P.decision(P.t, rule: 0, .heldOut)]), to: &tally)
        var m = MeasurementResult(tally: tally, campaigns: set, lines: 21)
        if let l { m.campaigns[0].lift?.lift = l }
        return (m, set)
    }

    private func html(_ m: MeasurementResult, _ set: CampaignSet, user: ReportUser? = nil) -> String {
        String(decoding: ReportHTML.render(m, campaigns: set, user: user), as: UTF8.self)
    }

    func testTheJSONHasEveryKeyOfMeasurement5() throws {
        let (m, _) = measurement()
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ReportJSON.render(m))) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["period", "lines", "fixes", "users", "campaigns"])
        XCTAssertEqual(json["lines"] as? Int, 21)
        XCTAssertEqual((json["period"] as? [String: String])?["from"], Timestamp.string(P.t - P.hour))
        let c = try XCTUnwrap((json["campaigns"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(c.keys), ["campaign", "users", "rules", "offers", "lift"])
        let offer = try XCTUnwrap((c["offers"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set((offer["decisions"] as? [String: Int] ?? [:]).keys), Set(DecisionStatus.allCases.map(\.rawValue)), "all five statuses")
        let lift = try XCTUnwrap(c["lift"] as? [String: Any])
        XCTAssertEqual(Set(lift.keys), ["goal", "treated", "holdout", "pending", "absolute_lift", "absolute_ci95", "relative_lift",
                                        "relative_ci95", "incremental_conversions", "p_value", "enough_data"])
        XCTAssertEqual((lift["treated"] as? [String: Any])?["rate"] as? Double, 1.0)
        XCTAssertTrue(lift["relative_lift"] is NSNull, "no holdout conversion: null")
        XCTAssertEqual(lift["enough_data"] as? Bool, false)
        let (none, _) = measurement(goal: false)
        let c2 = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(ReportJSON.render(none))) as? [String: Any])?["campaigns"] as? [[String: Any]])
        XCTAssertTrue(c2[0]["lift"] is NSNull, "no goal: lift is null")
    }

    func testThePageIsSelfContainedAndSaysWhenThereAreTooFewUsers() {
        let (m, set) = measurement()
        let page = html(m, set)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(page.contains("content=\"default-src 'none';"), "a CSP that forbids every request")
        XCTAssertFalse(page.contains("http://") || page.contains("https://") || page.contains("src=") || page.contains("<link"),
                       "nothing to fetch")
        XCTAssertTrue(page.contains(ReportHTML.tooFewWords))
        XCTAssertTrue(page.contains("name=\"viewport\""), "for phones")
        for table in ["reach-rules", "reach-offers", "lift-arms", "day-chart", "lift-interval"] {
            XCTAssertTrue(page.contains("class=\"\(table)\""), table)
        }
        XCTAssertFalse(page.contains("Significant at"), "never called significant without enough data")
    }

    func testAVerdictOnlyWithEnoughData() {
        let significant = Lift(treated: ArmCount(n: 1000, converted: 400), holdout: ArmCount(n: 1000, converted: 300))
        let (m, set) = measurement(significant)
        let page = html(m, set)
        XCTAssertTrue(page.contains("Significant at the 5% level (p &lt; 0.001)"), "the p-value's '<' escaped")
        XCTAssertFalse(page.contains(ReportHTML.tooFewWords))
        XCTAssertTrue(page.contains("+10.0 pts (95% interval +5.8 pts to +14.2 pts)"))
        XCTAssertTrue(page.contains("+33.3%"), "relative lift")
        let flat = Lift(treated: ArmCount(n: 200, converted: 50), holdout: ArmCount(n: 200, converted: 52))
        let (m2, set2) = measurement(flat)
        XCTAssertTrue(html(m2, set2).contains("No significant difference at the 5% level (p = 0.819)"))
        let empty = Lift(treated: ArmCount(n: 3, converted: 1), holdout: ArmCount(n: 0, converted: 0))
        let (m3, set3) = measurement(empty)
        let page3 = html(m3, set3)
        XCTAssertTrue(page3.contains("n/a: a group has no measured user"))
        XCTAssertFalse(page3.contains("class=\"lift-interval\""), "no interval to draw")
    }

    func testWithoutAGoalThePageSaysHowToGetALift() {
        let (m, set) = measurement(goal: false)
        XCTAssertTrue(html(m, set).contains("No goal, so no lift"))
    }

    func testAUserIsDrawnWithTrackVisitsAndDecisions() {
        let (m, set) = measurement()
        let o = P.outcome(P.treatedIds[0], visits: [P.visit(1, P.t, 20)], decisions: [P.decision(P.t + 60_000, rule: 0, .delivered)])
        let fixes = (0..<5).map { Fix(time: P.t + Int64($0) * 60_000, lat: 37.71 + Double($0) * 1e-4, lon: -121.75) }
        let page = html(m, set, user: ReportUser(outcome: o, fixes: fixes))
        XCTAssertEqual(page.components(separatedBy: "<polyline class=\"track\"").count - 1, 1)
        XCTAssertEqual(page.components(separatedBy: "class=\"visit\"").count - 1, 1)
        XCTAssertEqual(page.components(separatedBy: "class=\"decision status-delivered\"").count - 1, 1)
        XCTAssertTrue(page.contains("class=\"user-visits\"") && page.contains("class=\"user-decisions\""))
    }
}
