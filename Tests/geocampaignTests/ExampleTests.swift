import Foundation
import XCTest

/// The bundled examples: campaigns validate cleanly, and the example histories give exactly the
/// outputs the contract prescribes (examples/expected/, computed by an independent reading of the spec).
final class ExampleTests: XCTestCase {
    private func expected(_ name: String) throws -> String {
        try String(contentsOf: BinaryRunner.root.appendingPathComponent("examples/expected/\(name)"), encoding: .utf8)
    }

    func testExampleCampaignsValidateCleanly() throws {
        let r = try BinaryRunner.run(["validate", "campaigns"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "3 campaigns, 13 regions, 4 rules, 4 offers: 0 errors, 0 warnings\n")
    }

    func testEachExampleCampaignFileValidatesOnItsOwn() throws {
        for file in ["car-shoppers.yaml", "competitor-lunch.yaml", "lorrenzillos.yaml", "settings.yaml"] {
            let r = try BinaryRunner.run(["validate", "campaigns/\(file)"])
            XCTAssertEqual(r.status, 0, "\(file): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasSuffix(": 0 errors, 0 warnings\n"), r.stderr)
        }
    }

    func testGoldenOutputsOfTheExampleHistory() throws {
        let cases: [([String], String)] = [
            (["events", "--history", "examples/visits.jsonl"], "events.jsonl"),
            (["evaluate", "--history", "examples/visits.jsonl"], "decisions.jsonl"),
            (["events", "--history", "examples/lorrenzillos-dinner.gpx"], "lorrenzillos-dinner.events.jsonl"),
            (["evaluate", "--include-suppressed", "--history", "examples/lorrenzillos-dinner.gpx"], "lorrenzillos-dinner.decisions.jsonl"),
        ]
        for (args, golden) in cases {
            let r = try BinaryRunner.run(args + ["--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "")
            XCTAssertEqual(r.stdout, try expected(golden), golden)
        }
    }

    func testMainJobPrintsAtLeastOneDeliveredOfferPerCampaignAndASummary() throws {
        let r = try BinaryRunner.run(["evaluate", "--history", "examples/visits.jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for c in ["car-shoppers", "competitor-lunch", "lorrenzillos"] {
            XCTAssertTrue(r.stdout.contains("\"campaign\":\"\(c)\""), c)
        }
        XCTAssertTrue(r.stderr.hasPrefix("lines read: 1236, fixes accepted: 1236, fixes used: 1236, rejected: 0\nusers: 8, visits: 19, events: 38, triggers: 8\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("decisions: delivered 5, limited 0, lower_priority 0, held_out 2, capped 1\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("  competitor-lunch/lunch-coupon: delivered 1, capped 1\n"), r.stderr)
    }

    func testCSVHasAHeaderAndTheSameDecisions() throws {
        let r = try BinaryRunner.run(["evaluate", "--history", "examples/visits.jsonl", "--format", "csv", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first, "user,time,campaign,rule,offer,status,message,evidence")
        XCTAssertEqual(lines.count, 6)
        XCTAssertEqual(lines[1], "carla,2026-11-17T19:06:24Z,car-shoppers,three-dealers,test-drive,delivered,Book a test drive this week and get $500 off,arroyo-auto;granada-cars;las-positas-imports")
    }

    func testSimulateTellsTheDinnerInTimeOrder() throws {
        let r = try BinaryRunner.run(["simulate", "--gpx", "examples/lorrenzillos-dinner.gpx", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            2026-11-19 18:31:37 PST  enter     lorrenzillos/lorrenzillos (Lorrenzillo's)
            2026-11-19 19:01:37 PST  delivered lorrenzillos/thank-you by rule thanks: "Thanks for dining with us! Show this for a free dessert next time"
            2026-11-19 19:19:24 PST  exit      lorrenzillos/lorrenzillos (Lorrenzillo's) after 47m 47s, left

            """)
    }

    func testSimulateWaypointsWithoutTimesAreOneSecondApartFromStart() throws {
        let r = try BinaryRunner.run(["simulate", "--gpx", "examples/America.gpx", "--start", "2026-11-20T10:00:00Z", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "2026-11-20 02:00 PST  nothing happened: 3 points up to 2026-11-20 02:00:02 PST, no region entered and no offer decided\n")
    }

    func testExplainTellsEachStoryInWords() throws {
        let stories: [(String, [String])] = [
            ("carla", ["three-dealers -> test-drive: held once: 2026-11-17 11:06:24 PST to the end of the history", "test-drive by rule three-dealers: delivered: no cap, holdout"]),
            ("bob", ["three-dealers -> test-drive: never held: 2 of 3 distinct car-dealer regions within 72h"]),
            ("zoe", ["held_out, user is in the 10% holdout of car-shoppers"]),
            ("lena", ["lunch-coupon by rule lunch-at-competitor: delivered", "lunch-coupon by rule lunch-at-competitor: capped, cap of lunch-coupon reached"]),
            ("pat", ["visits:\n    lorrenzillos (Lorrenzillo's): entered"]),
        ]
        for (user, phrases) in stories {
            let r = try BinaryRunner.run(["explain", "--history", "examples/visits.jsonl", "--user", user, "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasPrefix("User \(user)\n"), r.stdout)
            for p in phrases { XCTAssertTrue(r.stdout.contains(p), "\(user): '\(p)' not in\n\(r.stdout)") }
        }
    }

    func testExplainUnknownUserSuggestsTheNearestId() throws {
        let r = try BinaryRunner.run(["explain", "--history", "examples/visits.jsonl", "--user", "carl", "--quiet"])
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, "error: user 'carl' has no accepted fix in the history (did you mean 'carla'?)\n")
    }
}
