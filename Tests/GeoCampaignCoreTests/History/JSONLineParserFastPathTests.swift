import Foundation
import XCTest
@testable import GeoCampaignCore

/// The reader's fast path for the common line shape must decide every line exactly as the full
/// parser does: the same accept or reject, the same reason and detail, the same user bytes and
/// the same fix bit for bit.
final class HistoryFastPathTests: XCTestCase {
    /// A line's outcome as text: `blank`, `REASON: detail`, or
    /// `ok USER-HEX TIME-MS LAT-BITS LON-BITS ACCURACY-BITS|nan`.
    static func describe(_ parser: JSONLineParser, _ status: JSONLineParser.Status) -> String {
        switch status {
        case .blank: return "blank"
        case .rejected: return "\(parser.reason.rawValue): \(parser.detail)"
        case .accepted:
            let user = UnsafeBufferPointer(start: parser.userPtr, count: parser.userLen)
                .map { String(format: "%02x", $0) }.joined()
            let f = parser.fix
            let acc = f.accuracy.isNaN ? "nan" : "\(f.accuracy.bitPattern)"
            return "ok \(user) \(f.time) \(f.lat.bitPattern) \(f.lon.bitPattern) \(acc)"
        }
    }

    /// The outcome of `parse` (fast path first) and of `parseFully`, and whether the fast path
    /// decided the line.
    static func both(_ parser: JSONLineParser, _ line: [UInt8]) -> (fast: String, full: String, common: Bool) {
        var copy = line
        if copy.isEmpty { copy = [0] }
        return copy.withUnsafeBufferPointer { buf -> (String, String, Bool) in
            guard let p = buf.baseAddress else { return ("", "", false) }
            let n = line.count
            let common = parser.fastPathEnabled && parser.parseCommon(p, n)
            let fast = describe(parser, parser.parse(p, n))
            let full = describe(parser, parser.parseFully(p, n))
            return (fast, full, common)
        }
    }

    /// The lines of a fixture, each without its `\n` and a `\r` before it.
    static func lines(_ name: String) throws -> [[UInt8]] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: HistoryTestPaths.fixture(name))))
        var out: [[UInt8]] = []
        var start = 0
        for (i, b) in data.enumerated() where b == 0x0A {
            var line = Array(data[start..<i])
            if line.last == 0x0D { line.removeLast() }
            out.append(line)
            start = i + 1
        }
        return out
    }

    func testGeneratedLinesMatchTheFullParserAndTheIndependentImplementation() throws {
        let lines = try Self.lines("fast-path-lines.jsonl")
        let expected = try String(contentsOfFile: HistoryTestPaths.fixture("fast-path-lines.expected"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4_032)
        XCTAssertEqual(lines.count, expected.count)
        let parser = JSONLineParser()
        XCTAssertTrue(parser.fastPathEnabled)
        var common = 0
        for (k, line) in lines.enumerated() {
            let r = Self.both(parser, line)
            if r.common { common += 1 }
            XCTAssertEqual(r.fast, r.full, "line \(k + 1)")
            let reason = r.fast.hasPrefix("ok ") ? r.fast : String(r.fast.prefix { $0 != ":" })
            if k < expected.count { XCTAssertEqual(reason, expected[k], "line \(k + 1)") }
        }
        // Most accepted lines are decided by the fast path, so it is what this test exercises.
        XCTAssertGreaterThan(common, 1_200)
    }

    /// The file reader, sequential and parallel, rejects exactly the lines (with the same reason,
    /// detail and text) that the reader before the fast path rejected: `fast-path-lines.rejects.jsonl`
    /// is the `--rejects` file that build wrote for this input.
    func testFileReaderRejectsAsTheReaderBeforeTheFastPath() throws {
        let golden = try String(contentsOfFile: HistoryTestPaths.fixture("fast-path-lines.rejects.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { line -> String in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let number = object?["line"] as? Int ?? -1
                let reason = object?["reason"] as? String ?? "?"
                let detail = object?["detail"] as? String ?? "?"
                let text = object?["text"] as? String ?? "?"
                return "\(number) \(reason) \(detail) \(text)"
            }
        XCTAssertEqual(golden.count, 2_040)
        for threads in [1, 2] {
            let builder = HistoryBuilder()
            builder.threads = threads
            builder.parallelMinBytes = 1
            var got: [String] = []
            builder.onReject = { r in
                got.append("\(r.line) \(r.reason.rawValue) \(r.detail) \(String(decoding: r.text, as: UTF8.self))")
            }
            try builder.read(path: HistoryTestPaths.fixture("fast-path-lines.jsonl"))
            XCTAssertEqual(got.count, golden.count, "threads \(threads)")
            for (k, (g, e)) in zip(got, golden).enumerated() where g != e {
                XCTFail("reject \(k + 1), threads \(threads): got \(g), expected \(e)")
            }
            XCTAssertEqual(builder.stats.fixesAccepted, 4_032 - 2_040)
        }
    }

    func testTrickyLinesInTheCommonShape() {
        let t = #""ts":"2026-03-09T21:33:16Z""#
        let cases: [(String, Bool, UInt)] = [
            // (line, decided by the fast path)
            (#"{"user":"u-0001",\#(t),"lat":37.70301,"lon":-121.7599,"accuracy":12.5}"#, true, #line),
            (#"{"user":"u-0001",\#(t),"lat":37.70301,"lon":-121.7599}"#, true, #line),
            (#"{"user":"u-0001",\#(t),"lat":37.70301,"lon":-121.7599,"accuracy":null}"#, true, #line),
            (#"{"user":900000,\#(t),"lat":37,"lon":-121,"accuracy":0}"#, true, #line),
            (#"{"user":0,\#(t),"lat":-0,"lon":-0.0,"accuracy":-0}"#, true, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16.250Z","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16.250+01:00","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16-08:00","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16.5Z","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16.9995Z","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":1773091996.156,"lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":1773091996,"lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"9999-12-31T23:59:59.999Z","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u","ts":"0001-01-01T00:00:00Z","lat":1,"lon":2}"#, true, #line),
            (#"{"user":"u",\#(t),"lat":37.000000000000001,"lon":2}"#, true, #line),
            (#"{"user":"u",\#(t),"lat":1e1,"lon":1.7976931348623157e2}"#, true, #line),
            (#"{"user":"u",\#(t),"lat":90,"lon":-180,"accuracy":5e-324}"#, true, #line),
            (#"{"user":"u",\#(t),"lat":0.0000000000000000001,"lon":123.456789012345678}"#, true, #line),
            // decided by the full parser
            (#"{"user":"u","ts":"9999-12-31T23:59:59.9995Z","lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":"0001-01-01T00:00:00+00:01","lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":"2026-03-09T23:59:60Z","lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":"2026-02-29T10:00:00Z","lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16\u005a","lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":1.7976931348623157e308,"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u\"v",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"\u0000",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"\ud800",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"Zürich",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":-5,\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":007,\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":1.5,\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1e400,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":90.00000000000001,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":01,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1.,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2,"accuracy":-1}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2,"accuracy":nul}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2,"accuracy":null,"accuracy":3}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lat":2,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lon":2,"lat":1}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2,"speed":3}"#, false, #line),
            (#"{"\u0075ser":"u",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user": "u",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2} "#, false, #line),
            (#" {"user":"u",\#(t),"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2}}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2,}"#, false, #line),
            (#"{"user":"u",\#(t),"lat":1,"lon":2"#, false, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16Z,"lat":1,"lon":2}"#, false, #line),
            (#"{"user":"u","ts":"2026-03-09T21:33:16Z"}"#, false, #line),
            ("{}", false, #line),
        ]
        let parser = JSONLineParser()
        for (line, common, l) in cases {
            let r = Self.both(parser, Array(line.utf8))
            XCTAssertEqual(r.fast, r.full, line, line: l)
            XCTAssertEqual(r.common, common, line, line: l)
        }
        // Invalid UTF-8 anywhere.
        let good = Array(#"{"user":"u-0001",\#(t),"lat":1,"lon":2}"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80]] {
            for at in [10, 12, 20, good.count - 3, good.count - 1] {
                var line = good
                line.insert(contentsOf: bad, at: at)
                let r = Self.both(parser, line)
                XCTAssertEqual(r.fast, r.full)
                XCTAssertFalse(r.common)
            }
        }
    }

    func testFieldMappingsAndKeyLengths() throws {
        let mappings: [([String], Bool, UInt)] = [
            // (user, ts, lat, lon, accuracy keys; fast path enabled)
            (["user", "ts", "lat", "lon", "accuracy"], true, #line),
            (["device_id", "t", "latitude", "longitude", "hacc"], true, #line),
            (["u", "t", "y", "x", "a"], true, #line),
            (["user", "ts", "lat", "lon", "a-rather-long-accuracy-key"], false, #line),
            (["user", "ts", "lat", "lon", "lat"], false, #line),
            (["usér", "ts", "lat", "lon", "accuracy"], false, #line),
            (["us\"er", "ts", "lat", "lon", "accuracy"], false, #line),
        ]
        for (keys, enabled, l) in mappings {
            var fields = HistoryFields()
            for (name, source) in zip(HistoryFields.canonicalNames, keys) { try fields.apply("\(name)=\(source)") }
            let parser = JSONLineParser(fields: fields)
            XCTAssertEqual(parser.fastPathEnabled, enabled, "\(keys)", line: l)
            func render(_ values: [String]) -> String {
                let json = keys.map { $0.replacingOccurrences(of: "\"", with: "\\\"") }
                return "{" + zip(json, values).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
            }
            let lines = [
                render(["\"u-1\"", "\"2026-03-09T21:33:16Z\"", "37.5", "-121.5", "3"]),
                render(["\"u-1\"", "\"2026-03-09T21:33:16Z\"", "37.5", "-121.5"]),
                render(["7", "1773091996", "37.5", "-121.5", "null"]),
                render(["\"u-1\"", "\"2026-03-09T21:33:16Z\"", "95", "-121.5", "3"]),
                #"{"user":"u-1","ts":"2026-03-09T21:33:16Z","lat":37.5,"lon":-121.5,"accuracy":3}"#,
            ]
            for (k, line) in lines.enumerated() {
                let r = Self.both(parser, Array(line.utf8))
                XCTAssertEqual(r.fast, r.full, line, line: l)
                if k < 3 && Set(keys).count == 5 { XCTAssertTrue(r.fast.hasPrefix("ok "), line, line: l) }
                if k < 3 && enabled { XCTAssertTrue(r.common, line, line: l) }
            }
        }
    }

    /// Random single-byte edits of common lines: every one reads as the full parser reads it.
    func testRandomEditsOfCommonLines() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array(#"{}[]",:\ 0123456789.-+eEnultrfasZTz"#.utf8) + [0x01, 0x09, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        let bases = [
            #"{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.70301,"lon":-121.7599,"accuracy":12}"#,
            #"{"user":900000,"ts":"2026-03-09T21:33:16.250-08:00","lat":37.7,"lon":-121.75,"accuracy":null}"#,
            #"{"user":"a","ts":1773091996.5,"lat":-0.5,"lon":0}"#,
        ].map { Array($0.utf8) }
        let parser = JSONLineParser()
        var accepted = 0
        for _ in 0..<30_000 {
            var line = bases[Int(rng.next() % UInt64(bases.count))]
            let edits = 1 + Int(rng.next() % 2)
            for _ in 0..<edits {
                let at = Int(rng.next() % UInt64(line.count))
                let c = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                switch rng.next() % 3 {
                case 0: line[at] = c
                case 1: line.insert(c, at: at)
                default: if line.count > 1 { line.remove(at: at) }
                }
            }
            let r = Self.both(parser, line)
            if r.fast.hasPrefix("ok ") { accepted += 1 }
            XCTAssertEqual(r.fast, r.full, String(decoding: line, as: UTF8.self))
        }
        XCTAssertGreaterThan(accepted, 3_000)
    }
}
