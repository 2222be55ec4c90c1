import XCTest
@testable import GeoCampaignCore

/// The complete examples of docs/campaign-format.md (YAML blocks that start with `campaign:` or
/// `settings:`) load without errors.
final class LoadingDocsExampleTests: XCTestCase {
    func testCompleteExamplesInTheGuideValidate() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/campaign-format.md").path
        let text = try String(contentsOfFile: docs, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if line == "```yaml" {
                current = []
            } else if line == "```", let c = current {
                blocks.append(c.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        let complete = blocks.filter { $0.hasPrefix("campaign:") || $0.hasPrefix("settings:") }
        XCTAssertEqual(complete.count, 2)
        let dir = NSTemporaryDirectory() + "geocampaign-docs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (i, b) in complete.enumerated() {
            _ = FileManager.default.createFile(atPath: "\(dir)/\(i).yaml", contents: Data(b.utf8))
        }
        let r = CampaignLoader().load(paths: [dir])
        XCTAssertEqual(r.diagnostics.map(\.description), [])
        XCTAssertEqual(r.campaignCount, 1)
        XCTAssertEqual(r.campaignSet.settings.perUserLimit, Cap(count: 2, perMs: 86_400_000))
    }
}
