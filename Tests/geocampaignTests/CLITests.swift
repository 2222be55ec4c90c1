import XCTest

/// The command line itself: help, version, usage errors and their exit statuses.
final class CLITests: XCTestCase {
    func testVersion() throws {
        let r = try BinaryRunner.run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasPrefix("geocampaign "), r.stdout)
    }

    func testTopLevelHelpListsEveryCommand() throws {
        let r = try BinaryRunner.run(["--help"])
        XCTAssertEqual(r.status, 0)
        for c in ["validate", "evaluate", "events", "explain", "simulate", "regions", "test"] {
            XCTAssertTrue(r.stdout.contains("  \(c) "), "help lacks \(c):\n\(r.stdout)")
        }
    }

    func testEveryCommandHasHelpWithUsageOptionsAndExample() throws {
        for c in ["validate", "evaluate", "events", "explain", "simulate", "regions", "test"] {
            let r = try BinaryRunner.run([c, "--help"])
            XCTAssertEqual(r.status, 0, c)
            XCTAssertTrue(r.stdout.contains("USAGE: geocampaign \(c)"), r.stdout)
            XCTAssertTrue(r.stdout.contains("OPTIONS:"), r.stdout)
            XCTAssertTrue(r.stdout.contains("EXAMPLE:\n  geocampaign \(c)"), r.stdout)
        }
    }

    func testUsageErrorsExit64WithMessageAndUsageOnStderr() throws {
        let cases: [([String], String)] = [
            ([], "error: missing command"),
            (["evalute"], "error: unknown command 'evalute' (did you mean 'evaluate'?)"),
            (["evaluate"], "error: missing --history FILE"),
            (["evaluate", "--history", "x.jsonl", "--histroy", "y"], "error: unknown option '--histroy' (did you mean '--history'?)"),
            (["evaluate", "--history"], "error: option '--history' needs a value FILE"),
            (["evaluate", "--history", "x", "--format", "xml"], "error: --format 'xml': expected jsonl or csv"),
            (["evaluate", "--history", "x", "--threads", "0"], "error: --threads '0': expected a whole number from 1 to 1024"),
            (["evaluate", "--history", "x", "--until", "yesterday"], "error: --until 'yesterday' is not an RFC 3339 instant such as 2026-03-10T12:00:00Z"),
            (["events", "--history", "x", "--field", "speed=v"], "error: --field 'speed=v': expected NAME=SOURCE with NAME one of user, ts, lat, lon, accuracy"),
            (["regions", "--gejson"], "error: unknown option '--gejson' (did you mean '--geojson'?)"),
        ]
        for (args, message) in cases {
            let r = try BinaryRunner.run(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(message + "\n"), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\nusage: geocampaign"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(args)")
        }
    }
}
