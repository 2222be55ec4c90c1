import Foundation
import XCTest

/// `validate` and `regions` through the binary: diagnostics, summary and exit statuses.
final class ValidateCommandTests: XCTestCase {
    private func write(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    func testBrokenFileGetsPositionMessageCaretAndExit65() throws {
        let dir = try write(["a.yaml": "campaign: c\nregions:\n  - id: r\n    circle: { center: \"37.7, -121.7\", radius: 150m }\nrules:\n  - id: x\n    when: { inside: { regions: [r] } }\n    offer: o\noffers:\n  - id: o\n    cap: 0\n"])
        let r = try BinaryRunner.run(["validate", "a.yaml"], cwd: dir)
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, """
            a.yaml:11:10: error: cap: the count must be at least 1 (a cap of 0 never lets anything through): write 'N per DURATION', e.g. '1 per 7d', or just 'N' for at most N ever
                cap: 0
                     ^
            1 campaign, 1 region, 1 rule, 1 offer: 1 error, 0 warnings

            """)
    }

    func testEveryProblemOfEveryFileInOneRun() throws {
        let dir = try write(["a.yaml": "campaign: a\nregions: [a, b\n", "b.yaml": "campaign: \"b\n"])
        let r = try BinaryRunner.run(["validate", "."], cwd: dir)
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasPrefix("./a.yaml:2:10: error: this list is never closed"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\n./b.yaml:1:11: error: this quoted text is never closed"), r.stderr)
    }

    func testMissingCampaignPathExits66NamingIt() throws {
        for args in [["validate", "nothere"], ["evaluate", "--campaigns", "nothere", "--history", "examples/visits.jsonl"]] {
            let r = try BinaryRunner.run(args)
            XCTAssertEqual(r.status, 66, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("nothere: error: no such file or folder"), r.stderr)
        }
    }

    func testMissingHistoryExits66NamingIt() throws {
        let r = try BinaryRunner.run(["events", "--history", "nothere.jsonl"])
        XCTAssertEqual(r.status, 66)
        XCTAssertTrue(r.stderr.hasPrefix("error: nothere.jsonl: "), r.stderr)
    }

    func testRegionsGeoJSONIsAFeatureCollectionOfEveryRegion() throws {
        let r = try BinaryRunner.run(["regions", "campaigns", "--geojson"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(json["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 13)
        for f in features {
            let props = try XCTUnwrap(f["properties"] as? [String: Any])
            XCTAssertNotNil(props["id"] as? String)
            let kind = try XCTUnwrap(props["kind"] as? String)
            XCTAssertTrue(kind == "circle" || kind == "polygon")
            if kind == "circle" { XCTAssertNotNil(props["radius_m"]) }
            let geometry = try XCTUnwrap(f["geometry"] as? [String: Any])
            let rings = try XCTUnwrap(geometry["coordinates"] as? [[[Double]]] ?? (geometry["coordinates"] as? [[[[Double]]]])?.first)
            for ring in rings {
                XCTAssertEqual(ring.first, ring.last, "ring closed")
                XCTAssertGreaterThanOrEqual(ring.count, 4)
            }
        }
    }

    func testStrictMakesARejectedLineFatal() throws {
        let dir = try write(["h.jsonl": "{\"user\":\"u\",\"ts\":\"2026-11-16T10:00:00Z\",\"lat\":37.7,\"lon\":-121.7}\nnot json\n"])
        let campaigns = BinaryRunner.root.appendingPathComponent("campaigns").path
        let lenient = try BinaryRunner.run(["events", "--campaigns", campaigns, "--history", "h.jsonl"], cwd: dir)
        XCTAssertEqual(lenient.status, 0, lenient.stderr)
        XCTAssertTrue(lenient.stderr.contains("rejected: 1 (invalid_json 1)"), lenient.stderr)
        let strict = try BinaryRunner.run(["events", "--campaigns", campaigns, "--history", "h.jsonl", "--strict"], cwd: dir)
        XCTAssertEqual(strict.status, 65)
        XCTAssertTrue(strict.stderr.hasPrefix("error: h.jsonl:2: rejected line (invalid_json)"), strict.stderr)
    }

    /// `evaluate` and `events` read the history while the campaigns load; the errors still come in
    /// the order of the stages (campaigns, output, rejects file, history), and a campaign error
    /// leaves the output and rejects files untouched.
    func testErrorsComeInStageOrderAndBrokenCampaignsTouchNoFile() throws {
        let good = "{\"user\":\"u\",\"ts\":\"2026-11-16T10:00:00Z\",\"lat\":37.7,\"lon\":-121.7}\nnot json\n"
        let dir = try write(["bad.yaml": "campaign: c\nregions:\n  - id: r\n    circle: { center: \"37.7, -121.7\", radius: 150m }\nrules:\n  - id: x\n    when: { inside: { regions: [r] } }\n    offer: o\noffers:\n  - id: o\n    cap: 0\n", "h.jsonl": good, "out.jsonl": "kept\n", "rej.jsonl": "kept\n"])
        let campaigns = BinaryRunner.root.appendingPathComponent("campaigns").path
        let fm = FileManager.default
        for command in ["evaluate", "events"] {
            // Broken campaigns win over a missing history, an unwritable output and bad --field.
            for extra in [["--history", "nothere.jsonl"], ["--history", "h.jsonl", "--output", "no/such/dir/o.jsonl"],
                          ["--history", "h.jsonl", "--field", "lat=y"], ["--history", "h.jsonl", "--output", "out.jsonl", "--rejects", "rej.jsonl"]] {
                let r = try BinaryRunner.run([command, "--campaigns", "bad.yaml"] + extra, cwd: dir)
                XCTAssertEqual(r.status, 65, "\(command) \(extra): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("bad.yaml:11:10: error: cap: the count must be at least 1"), r.stderr)
                XCTAssertTrue(r.stderr.hasSuffix("error: the campaigns have 1 error; fix them first ('geocampaign validate' lists them)\n"), r.stderr)
            }
            XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8), "kept\n")
            XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("rej.jsonl"), encoding: .utf8), "kept\n")
            // With good campaigns: an unwritable output is told before a missing history.
            let out = try BinaryRunner.run([command, "--campaigns", campaigns, "--history", "nothere.jsonl", "--output", "no/such/dir/o.jsonl"], cwd: dir)
            XCTAssertEqual(out.status, 1, out.stderr)
            XCTAssertTrue(out.stderr.contains("no/such/dir/o.jsonl: cannot be written"), out.stderr)
            // An unwritable rejects file before a missing history; a failed run puts no output file in place (state.md 1.4).
            try? fm.removeItem(at: dir.appendingPathComponent("o2.jsonl"))
            let rej = try BinaryRunner.run([command, "--campaigns", campaigns, "--history", "nothere.jsonl", "--output", "o2.jsonl", "--rejects", "no/such/dir/r.jsonl"], cwd: dir)
            XCTAssertEqual(rej.status, 1, rej.stderr)
            XCTAssertTrue(rej.stderr.contains("no/such/dir/r.jsonl: cannot be written"), rej.stderr)
            XCTAssertFalse(fm.fileExists(atPath: dir.appendingPathComponent("o2.jsonl").path))
            // A missing history with good campaigns and files: exit 66, no rejects file either.
            try? fm.removeItem(at: dir.appendingPathComponent("r3.jsonl"))
            let missing = try BinaryRunner.run([command, "--campaigns", campaigns, "--history", "nothere.jsonl", "--rejects", "r3.jsonl"], cwd: dir)
            XCTAssertEqual(missing.status, 66, missing.stderr)
            XCTAssertFalse(fm.fileExists(atPath: dir.appendingPathComponent("r3.jsonl").path))
            // A good run writes the reject.
            let ok = try BinaryRunner.run([command, "--campaigns", campaigns, "--history", "h.jsonl", "--rejects", "r4.jsonl", "--output", "o4.jsonl"], cwd: dir)
            XCTAssertEqual(ok.status, 0, ok.stderr)
            XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("r4.jsonl"), encoding: .utf8).contains("invalid_json"))
        }
    }
}
