import XCTest
@testable import GeoCampaignCore

/// Each file in Fixtures/Loading/broken holds one mistake (a few hold several); the full text
/// of its diagnostics (position, message, source line, caret) must equal the `.expected` file
/// beside it, with paths relative to the fixture folder.
final class LoadingBrokenFileTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Loading").path
    static let brokenDir = fixtures + "/broken"

    /// The diagnostics of loading `path`, printed as `validate` prints them, the fixture folder
    /// stripped from paths.
    static func rendered(_ paths: [String]) -> (String, LoadResult) {
        let r = CampaignLoader().load(paths: paths)
        let text = r.diagnostics.map(\.description).joined(separator: "\n")
        return (text.replacingOccurrences(of: brokenDir + "/", with: "").replacingOccurrences(of: fixtures + "/", with: ""), r)
    }

    func testEveryBrokenFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.brokenDir).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 30)
        let regenerate = ProcessInfo.processInfo.environment["GEOCAMPAIGN_REGENERATE"] == "1"
        for name in names {
            let path = Self.brokenDir + "/" + name
            let (text, result) = Self.rendered([path])
            let expectedPath = Self.brokenDir + "/" + name.replacingOccurrences(of: ".yaml", with: ".expected")
            if regenerate {
                try (text + "\n").write(toFile: expectedPath, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
            XCTAssertEqual(text + "\n", expected, "\(name)")
            XCTAssertFalse(result.diagnostics.isEmpty, "\(name) has no diagnostic")
            // Every fixture but the warning-only ones must fail validation.
            let warningOnly = ["rule-only-not-during", "unused-offer-and-region", "import-self-intersections", "import-one-self-intersection"].contains { name.contains($0) }
            XCTAssertEqual(result.hasErrors, !warningOnly, "\(name)")
            XCTAssertEqual(result.unreadablePaths, [], "\(name)")
        }
    }
}
