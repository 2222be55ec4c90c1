import Foundation
import XCTest
@testable import GeoCampaignCore

/// The CSV examples of docs/history-format.md read as the text says.
final class HistoryFormatDocTests: XCTestCase {
    /// The bodies of the ```csv blocks of the document.
    func csvBlocks() throws -> [String] {
        let text = try String(contentsOf: HistoryTestPaths.root.appendingPathComponent("docs/history-format.md"), encoding: .utf8)
        return text.components(separatedBy: "```csv\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    func read(_ text: String, fields: HistoryFields = HistoryFields()) throws -> (History, [RejectedLine]) {
        let path = NSTemporaryDirectory() + "doc-\(UUID().uuidString).csv"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let builder = HistoryBuilder(fields: fields)
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        try builder.read(path: path)
        return (builder.finish(), rejects)
    }

    func testTheExamplesAreRead() throws {
        let blocks = try csvBlocks()
        XCTAssertEqual(blocks.count, 2)
        let (h, rejects) = try read(blocks[0])
        XCTAssertEqual(rejects, [])
        XCTAssertEqual(h.userIds, ["u-17", "Smith, J.", "note \"quoted\" and\non two lines"])
        XCTAssertEqual(h.fixes.map(\.count), [2, 1, 1])
        XCTAssertEqual(h.fixes[0].map(\.time), [1_795_946_405_000, 1_795_946_435_000])
        XCTAssertTrue(h.fixes[0][1].accuracy.isNaN)
        XCTAssertEqual(h.fixes[1][0].time, 1_795_946_405_500)
        var fields = HistoryFields()
        fields.user = "device"
        fields.ts = "time"
        let (eu, euRejects) = try read(blocks[1], fields: fields)
        XCTAssertEqual(euRejects, [])
        XCTAssertEqual(eu.fixes.first?.first?.lat, 47.37685)
        XCTAssertEqual(eu.fixes.first?.first?.lon, 8.54163)
    }
}
