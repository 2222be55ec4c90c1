import Foundation
import XCTest
@testable import GeoCampaignCore

/// A state keeps its latest batch's hash to recognise a repeat (state.md 1.4): the hash must not
/// change between builds. The values were written by the build that read the files in 1 MiB
/// pieces (main at 7d13f96); this one maps them.
final class BatchHashTests: XCTestCase {
    func testHashesAreThoseOfEarlierBuilds() throws {
        let b1 = TestData.path("state-1/batches/batch-1.jsonl"), b2 = TestData.path("state-1/batches/batch-2.jsonl")
        // batch-1 is 244,660 bytes: its last word is zero-padded.
        let size = try FileManager.default.attributesOfItem(atPath: b1)[.size] as? Int ?? 0
        XCTAssertNotEqual(size % 8, 0)
        XCTAssertEqual(try BatchHash.of(paths: [b1]), "45635c5589156ddba222a678332a547a")
        XCTAssertEqual(try BatchHash.of(paths: [b1, b2]), "7b832bc627e345c4dc4fbe2214421cf5")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("gc-empty-\(UUID().uuidString)")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        XCTAssertEqual(try BatchHash.of(paths: [empty.path]), "2e72b4654e79d8d16df1868f6c79f510")
    }
}
