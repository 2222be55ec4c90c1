import Foundation
import XCTest

/// CSV histories through the real binary: the same history as JSON Lines and as CSV gives the same
/// decisions, events and reject reasons; `.csv`, `--history-format`, `--ts-format`, `--sorted`,
/// stdin, and the rejects file of a row that spans lines.
final class CSVHistoryTests: XCTestCase {
    static let conformance = BinaryRunner.root.appendingPathComponent("Tests/Data/conformance-1")
    var tempFiles: [URL] = []

    override func tearDown() {
        for f in tempFiles { try? FileManager.default.removeItem(at: f) }
        tempFiles = []
    }

    func temp(_ text: String, ext: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gc-csv-\(UUID().uuidString).\(ext)")
        try Data(text.utf8).write(to: url)
        tempFiles.append(url)
        return url
    }

    /// A CSV cell for `s`: quoted (quotes doubled) when it holds a separator, a quote, a line end
    /// or spaces at its ends, or is empty text that must stay a value.
    static func cell(_ s: String) -> String {
        let special = s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
            || s.hasPrefix(" ") || s.hasSuffix(" ") || s.hasPrefix("\t") || s.hasSuffix("\t")
        return special ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    /// The raw JSON text of the value of `key` in `line`, or nil when the key is absent; "dup"
    /// when it occurs more than once.
    static func raw(_ key: String, in line: String) -> String? {
        let pattern = "\"\(key)\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|[-+0-9.eE]+|true|false|null|\\{|\\[)"
        guard let re = try? NSRegularExpression(pattern: pattern) else { return nil }
        let matches = re.matches(in: line, range: NSRange(line.startIndex..., in: line))
        if matches.count > 1 { return "dup" }
        guard let m = matches.first, let r = Range(m.range(at: 1), in: line) else { return nil }
        return String(line[r])
    }

    /// The CSV row equivalent to one JSON Lines line (same fix or same reject reason), or nil when
    /// the line has no CSV equivalent (not an object, JSON types that CSV cannot tell apart).
    static func csvRow(_ line: String) -> String? {
        guard let data = line.data(using: .utf8),
              let obj = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var cells: [String] = []
        for key in ["user", "ts", "lat", "lon", "accuracy"] {
            guard let v = raw(key, in: line) else {
                if obj[key] != nil { return nil }
                cells.append("")
                continue
            }
            if v == "dup" || v == "true" || v == "false" || v == "{" || v == "[" { return nil }
            if v == "null" {
                if key != "accuracy" { return nil }
                cells.append("")
            } else if v.hasPrefix("\"") {
                guard let s = obj[key] as? String else { return nil }
                switch key {
                case "lat", "lon", "accuracy": return nil  // a string number is bad_type in JSON, read in CSV
                case "ts":
                    // Numeric text or a space for T: bad_timestamp in JSON, read in CSV.
                    let u = Array(s.utf8)
                    if Double(s) != nil || (u.count > 10 && u[10] == 0x20) { return nil }
                default: break
                }
                cells.append(cell(s))
            } else {
                if key == "user" && (v.contains(".") || v.contains("e") || v.contains("E")) { return nil }
                cells.append(v)
            }
        }
        return cells.joined(separator: ",")
    }

    /// The lines of conformance-1's history that have a CSV equivalent, as JSON Lines and as CSV.
    /// `csvLines` maps the first line of each CSV row to the line of its JSON Lines twin.
    func equivalentHistories() throws -> (jsonl: URL, csv: URL, lines: Int, csvLines: [Int: Int]) {
        let bytes = try Data(contentsOf: Self.conformance.appendingPathComponent("history.jsonl"))
        var jsonl = "", csv = "user,ts,lat,lon,accuracy\n", count = 0
        var csvLines: [Int: Int] = [:], next = 2
        // Lines the contract rejects for their JSON structure (which a lenient JSON reader such
        // as JSONSerialization may accept) have no CSV twin.
        let structural: Set<String> = ["invalid_json", "not_object", "bad_encoding", "too_long"]
        let rejects = try String(contentsOf: Self.conformance.appendingPathComponent("rejects.jsonl"), encoding: .utf8)
        var skip = Set<Int>()
        for l in rejects.split(separator: "\n") {
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any])
            if structural.contains(o["reason"] as? String ?? ""), let n = o["line"] as? Int { skip.insert(n) }
        }
        for (n, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where !raw.isEmpty && !skip.contains(n + 1) {
            guard let line = String(data: raw, encoding: .utf8), let row = Self.csvRow(line) else { continue }
            jsonl += line + "\n"
            csv += row + "\n"
            count += 1
            csvLines[next] = count
            next += 1 + row.filter { $0 == "\n" }.count
        }
        return (try temp(jsonl, ext: "jsonl"), try temp(csv, ext: "csv"), count, csvLines)
    }

    func testTheSameHistoryAsJSONLinesAndAsCSVGivesTheSameOutput() throws {
        let (jsonl, csv, lines, csvLines) = try equivalentHistories()
        XCTAssertGreaterThan(lines, 1_000)
        for command in [["evaluate", "--include-suppressed"], ["events"]] {
            var outputs: [String] = []
            var reasons: [[String]] = []
            for history in [jsonl, csv] {
                let rejects = FileManager.default.temporaryDirectory.appendingPathComponent("gc-csv-rejects-\(UUID().uuidString).jsonl")
                tempFiles.append(rejects)
                let r = try BinaryRunner.run(command + ["--campaigns", "campaigns", "--history", history.path, "--quiet",
                                                        "--rejects", rejects.path], cwd: Self.conformance)
                XCTAssertEqual(r.status, 0, r.stderr)
                outputs.append(r.stdout)
                let text = try String(contentsOf: rejects, encoding: .utf8)
                reasons.append(try text.split(separator: "\n").map { l in
                    let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any])
                    let line = o["line"] as? Int ?? 0
                    return "\(history == csv ? csvLines[line] ?? -line : line) \(o["reason"] ?? "")"
                })
            }
            XCTAssertFalse(outputs[0].isEmpty)
            XCTAssertEqual(outputs[0], outputs[1], command[0])
            XCTAssertGreaterThan(reasons[0].count, 5)
            XCTAssertEqual(reasons[0], reasons[1], command[0])
        }
    }

    func testCSVByExtensionByOptionAndOnStdinOnOneAndTwoThreads() throws {
        let (jsonl, csv, _, _) = try equivalentHistories()
        let want = try BinaryRunner.run(["evaluate", "--campaigns", "campaigns", "--history", jsonl.path, "--quiet"], cwd: Self.conformance)
        XCTAssertEqual(want.status, 0, want.stderr)
        let csvText = try Data(contentsOf: csv)
        let renamed = try temp(String(decoding: csvText, as: UTF8.self), ext: "txt")
        let runs: [([String], Data?)] = [
            (["--history", csv.path, "--threads", "1"], nil),
            (["--history", csv.path, "--threads", "2"], nil),
            (["--history", renamed.path, "--history-format", "csv", "--threads", "2"], nil),
            (["--history", "-", "--history-format", "csv"], csvText),
        ]
        for (args, stdin) in runs {
            let r = try BinaryRunner.run(["evaluate", "--campaigns", "campaigns", "--quiet"] + args, cwd: Self.conformance, stdin: stdin)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout, want.stdout, "\(args)")
        }
        // Without the option, stdin is JSON Lines: the header and every row are invalid_json.
        // (A few lines only: the run stops at the first, and the rest must fit in the pipe.)
        let plain = try BinaryRunner.run(["evaluate", "--campaigns", "campaigns", "--quiet", "--history", "-", "--strict"],
                                         cwd: Self.conformance, stdin: csvText.prefix(2_000))
        XCTAssertEqual(plain.status, 65)
        XCTAssertTrue(plain.stderr.contains("-:1: rejected line (invalid_json)"), plain.stderr)
    }

    func testSortedCSVIsStreamedWithTheSameOutput() throws {
        let text = try String(contentsOf: BinaryRunner.root.appendingPathComponent("examples/visits.jsonl"), encoding: .utf8)
        var groups: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            guard let row = Self.csvRow(String(line)) else { return XCTFail(String(line)) }
            groups[String(row.prefix { $0 != "," }), default: []].append(row)
        }
        // Users in byte order of their ids, as the whole-file run prints them.
        let order = groups.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let grouped = try temp("user,ts,lat,lon,accuracy\n" + order.flatMap { groups[$0] ?? [] }.joined(separator: "\n") + "\n", ext: "csv")
        for command in [["evaluate", "--include-suppressed"], ["events"]] {
            let whole = try BinaryRunner.run(command + ["--history", "examples/visits.jsonl", "--quiet"])
            let streamed = try BinaryRunner.run(command + ["--history", grouped.path, "--sorted", "--quiet"])
            XCTAssertEqual(streamed.status, 0, streamed.stderr)
            XCTAssertFalse(whole.stdout.isEmpty)
            XCTAssertEqual(streamed.stdout, whole.stdout, command[0])
        }
    }

    func testRejectsOfACSVFileAndEpochMilliseconds() throws {
        let csv = try temp("device;time;lat;lon\n"
            + "d1;1795946405000;37,70301;-121,7599\n"
            + "\"d\n2\";1795946406000;95;1\n"
            + "d3;soon;1;2\n", ext: "csv")
        let rejects = FileManager.default.temporaryDirectory.appendingPathComponent("gc-csv-rejects-\(UUID().uuidString).jsonl")
        tempFiles.append(rejects)
        let r = try BinaryRunner.run(["events", "--history", csv.path, "--field", "user=device", "--field", "ts=time",
                                      "--ts-format", "epoch_ms", "--rejects", rejects.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("lines read: 5, fixes accepted: 1"), r.stderr)
        let lines = try String(contentsOf: rejects, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            #"{"line": 3, "reason": "out_of_range", "detail": "field \"lat\" is \"95\", outside [-90, 90]", "text": "\"d\n2\";1795946406000;95;1"}"#,
            #"{"line": 5, "reason": "bad_timestamp", "detail": "field \"time\" is \"soon\", not an RFC 3339 timestamp with offset in years 0001-9999 nor a number", "text": "d3;soon;1;2"}"#,
        ])
    }

    /// Issue 10 item 5 through the binary: a 3 MB line (or row) is one too_long reject whose text is
    /// its first 1 KiB, and the lines after it are used.
    func testTooLongLineAndRowInTheRejectsFile() throws {
        let long = String(repeating: "y", count: 3_000_000)
        let jsonl = try temp(#"{"user": "pat", "ts": "2026-11-16T16:05:34Z", "lat": 37.701762, "lon": -121.796138}"# + "\n" + long + "\n"
            + #"{"user": "pat", "ts": "2026-11-16T16:06:02Z", "lat": 37.701748, "lon": -121.791306}"# + "\n", ext: "jsonl")
        let csv = try temp("user,ts,lat,lon\npat,2026-11-16T16:05:34Z,37.701762,-121.796138\n\"" + long + "\npat,2026-11-16T16:06:02Z,37.701748,-121.791306\n", ext: "csv")
        for (history, line, what) in [(jsonl, 2, "line"), (csv, 3, "row")] {
            let rejects = FileManager.default.temporaryDirectory.appendingPathComponent("gc-csv-rejects-\(UUID().uuidString).jsonl")
            tempFiles.append(rejects)
            let r = try BinaryRunner.run(["events", "--history", history.path, "--rejects", rejects.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("fixes accepted: 2"), r.stderr)
            let text = try String(contentsOf: rejects, encoding: .utf8)
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            XCTAssertEqual(o["line"] as? Int, line)
            XCTAssertEqual(o["reason"] as? String, "too_long")
            let bytes = what == "row" ? 3_000_001 : 3_000_000
            XCTAssertEqual(o["detail"] as? String, "\(what) is \(bytes) bytes, over the limit of 1 MiB; text is its first 1024 bytes")
            XCTAssertEqual((o["text"] as? String)?.utf8.count, 1_024)
        }
    }

    func testOptionErrorsExit64() throws {
        let cases: [([String], String)] = [
            (["evaluate", "--history", "x", "--history-format", "xml"], "error: --history-format 'xml': expected jsonl or csv"),
            (["evaluate", "--history", "x", "--history-format", "gpx"], "error: --history-format 'gpx': expected jsonl or csv"),
            (["events", "--history", "x", "--ts-format", "ms"], "error: --ts-format 'ms': expected epoch_s or epoch_ms"),
        ]
        for (args, message) in cases {
            let r = try BinaryRunner.run(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(message + "\n"), "\(args): \(r.stderr)")
        }
    }
}
