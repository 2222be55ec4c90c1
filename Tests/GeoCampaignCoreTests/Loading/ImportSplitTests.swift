import XCTest
@testable import GeoCampaignCore

/// Imports large enough to be decoded in parallel chunks report every problem exactly where and
/// as decoding feature by feature does: feature numbers, file positions, the order of the
/// diagnostics, and duplicate ids across chunks.
final class ImportSplitTests: XCTestCase {
    /// One feature per line: feature `i` (1-based) is on line `i + 1`.
    private func square(_ i: Int, id: String? = nil, ring: String? = nil) -> String {
        let x = Double(i % 100) / 10, y = Double(i / 100) / 10
        let r = ring ?? "[[\(x),\(y)],[\(x + 0.05),\(y)],[\(x + 0.05),\(y + 0.05)],[\(x),\(y + 0.05)],[\(x),\(y)]]"
        return #"{"type":"Feature","id":"\#(id ?? "f-\(i)")","properties":{},"geometry":{"type":"Polygon","coordinates":[\#(r)]}}"#
    }

    /// Column (1-based) of the first `needle` in `line` (ASCII), `after` bytes further.
    private func column(_ line: String, _ needle: String, after: Int = 0) throws -> Int {
        let range = try XCTUnwrap(line.range(of: needle))
        return line.utf8.distance(from: line.startIndex, to: range.lowerBound) + 1 + after
    }

    /// The campaign `c.yaml` importing `f.geojson` (a FeatureCollection of `lines`, one feature
    /// per line from line 2), loaded from a fresh folder; `extra` goes into the import entry.
    private func load(_ lines: [String], extra: String = "") throws -> (LoadResult, String) {
        let dir = NSTemporaryDirectory() + "geocampaign-split-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try ("{\"type\":\"FeatureCollection\",\"features\":[\n" + lines.joined(separator: ",\n") + "\n]}\n")
            .write(toFile: dir + "/f.geojson", atomically: true, encoding: .utf8)
        let yaml = "campaign: c\nregions:\n  - import: f.geojson\n\(extra)    tags: [place]\nrules:\n  - id: r\n    when:\n      visited: { tags: [place], at_least: 3, distinct: true, within: 1d }\n    offer: o\noffers:\n  - id: o\n"
        try yaml.write(toFile: dir + "/c.yaml", atomically: true, encoding: .utf8)
        return (CampaignLoader().load(paths: [dir + "/c.yaml"]), dir)
    }

    func testProblemsInLaterChunksAreReportedAsOneByOne() throws {
        let n = 5_000
        let crossing = 4_100, outOfRange = 4_321, duplicate = 4_700
        var lines: [String] = []
        for i in 1...n {
            switch i {
            case crossing:
                // A bow tie where the square would be (4.1, 0.0): near the others, not an outlier.
                lines.append(square(i, ring: "[[0,4.1],[0.05,4.15],[0.05,4.1],[0,4.15],[0,4.1]]"))
            case outOfRange:
                lines.append(square(i, ring: "[[1,1],[2,1],[200,10],[1,2],[1,1]]"))
            case duplicate:
                lines.append(square(i, id: "f-12"))
            default:
                lines.append(square(i))
            }
        }
        let (result, dir) = try load(lines)
        let got = result.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column): \($0.severity.rawValue): \($0.message)" }
        let crossingLine = lines[crossing - 1], rangeLine = lines[outOfRange - 1], dupLine = lines[duplicate - 1]
        XCTAssertEqual(got, [
            "f.geojson:\(crossing + 1):\(try column(crossingLine, "[0.05,4.1]")): warning: feature \(crossing) ('f-\(crossing)') crosses itself near 4.1, 0.05: the edge from point 1 to point 2 crosses the edge from point 3 to point 4; swap points 2 and 3; inside and outside follow the even-odd rule",
            "f.geojson:\(outOfRange + 1):\(try column(rangeLine, "[200,10]")): error: feature \(outOfRange) ('f-\(outOfRange)') has a position out of range (longitude 200, latitude 10): GeoJSON writes [longitude, latitude], longitude first",
            "f.geojson:\(duplicate + 1):\(try column(dupLine, "\"id\":", after: 5)): error: feature \(duplicate) ('f-12') has the id 'f-12', already used by feature 12 ('f-12') of 'f.geojson', imported on line 3 in \(dir)/c.yaml: region ids must be unique in a campaign (use id_property: to pick another property)",
        ])
        XCTAssertEqual(result.regionCount, n - 2)
        XCTAssertGreaterThanOrEqual(n, 4_096, "enough features to be decoded in several chunks")
    }

    func testDuplicatesAcrossChunksKeepTheFirstAndReportTheLaterOnesInFileOrder() throws {
        let n = 6_000
        // Feature 5,001 repeats feature 2's id, 5,002 repeats 5,001's (already used by 2), and
        // 3,000 repeats 1's: every later one is reported, in file order, against the first.
        var lines = (1...n).map { square($0) }
        lines[5_000] = square(5_001, id: "f-2")
        lines[5_001] = square(5_002, id: "f-2")
        lines[2_999] = square(3_000, id: "f-1")
        let (result, dir) = try load(lines)
        let got = result.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }
        func expected(_ feature: Int, _ id: String, first: Int) throws -> String {
            "\(feature + 1):\(try column(lines[feature - 1], "\"id\":", after: 5)): feature \(feature) ('\(id)') has the id '\(id)', already used by feature \(first) ('\(id)') of 'f.geojson', imported on line 3 in \(dir)/c.yaml: region ids must be unique in a campaign (use id_property: to pick another property)"
        }
        XCTAssertEqual(got, [try expected(3_000, "f-1", first: 1), try expected(5_001, "f-2", first: 2), try expected(5_002, "f-2", first: 2)])
        XCTAssertEqual(result.regionCount, n - 3)
        // The chunks are merged as they are decoded: the regions still come in file order.
        let ids = try XCTUnwrap(result.campaignSet.campaigns.first).regions.map(\.id)
        XCTAssertEqual(ids, (1...n).filter { ![3_000, 5_001, 5_002].contains($0) }.map { "f-\($0)" })
    }

    func testFeaturesWithoutIdsSuggestTheUniquePropertiesAfterChunkedDecoding() throws {
        // Decoding in chunks gives back the features' nodes; the message about missing ids still
        // names the properties unique across all features (read from the text again).
        let n = 5_000
        let lines = (1...n).map { i in
            #"{"type":"Feature","properties":{"kind":"shop","objectid":\#(i),"name":"n-\#(i)"},"geometry":{"type":"Point","coordinates":[\#(Double(i % 100) / 100),\#(Double(i / 100) / 100)]}}"#
        }
        let (result, _) = try load(lines, extra: "    radius: 100m\n")
        let got = result.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column): \($0.message)" }
        XCTAssertEqual(got, [
            "c.yaml:3:13: all \(n) features in 'f.geojson' have no usable id (the first at line 2 of that file): add id_property: objectid (the properties with a different value in every feature: objectid, name)",
        ])
    }
}
