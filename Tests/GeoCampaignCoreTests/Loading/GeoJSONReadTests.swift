import XCTest
@testable import GeoCampaignCore

/// Import files large enough to be read in pieces on all cores hold exactly the file's bytes.
final class GeoJSONReadTests: XCTestCase {
    func testLargeImportIsReadWhole() throws {
        let dir = NSTemporaryDirectory() + "geocampaign-read-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        var lines = ["{\"type\":\"FeatureCollection\",\"features\":["]
        var i = 0, size = lines[0].utf8.count + 1
        // Lines of different lengths, so that no piece boundary falls at the same place in each line.
        while size < GeoJSONCache.parallelReadFrom + 100_000 {
            let pad = String(repeating: "x", count: i % 37)
            lines.append(#"{"type":"Feature","id":"f-\#(i)","properties":{"name":"n\#(pad)"},"geometry":{"type":"Point","coordinates":[\#(Double(i % 360) - 180),\#(Double(i % 180) - 90)]}},"#)
            size += lines[lines.count - 1].utf8.count + 1
            i += 1
        }
        lines[lines.count - 1].removeLast()
        lines.append("]}")
        let path = dir + "/f.geojson"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let file = try GeoJSONCache().file(at: path).get()
        XCTAssertEqual(file.root["features"]?.array?.count, i)
        for (n, line) in lines.enumerated() { XCTAssertEqual(file.source.line(n + 1), line, "line \(n + 1)") }
        var got = BatchHash.start, want = BatchHash.start
        file.source.addBytes(to: &got)
        SourceFile(path: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path)))).addBytes(to: &want)
        XCTAssertTrue(got == want)
    }
}
