import Foundation

/// Paths used by the History tests, relative to this file .
enum HistoryTestPaths {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Fixture folder of the History tests.
    static let fixtures = root.appendingPathComponent("Tests/GeoCampaignCoreTests/Fixtures/History")

    /// A path in the shared test data: `data/X` is `Tests/Data/X`, `spec/examples/X` is `Tests/Data/X`.
    static func sharedPath(_ rel: String) -> String {
        var r = Substring(rel)
        for prefix in ["data/", "spec/examples/"] where r.hasPrefix(prefix) { r = r.dropFirst(prefix.count) }
        return TestData.path(String(r))
    }
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
}
