import Foundation

/// Paths used by the History tests, relative to this file (the worktree is a sibling of `shared`).
enum HistoryTestPaths {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `../shared` next to the repository root.
    static let shared = root.deletingLastPathComponent().appendingPathComponent("shared")
    /// Fixture folder of the History tests.
    static let fixtures = root.appendingPathComponent("Tests/GeoCampaignCoreTests/Fixtures/History")

    static func sharedPath(_ rel: String) -> String { shared.appendingPathComponent(rel).path }
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
}
