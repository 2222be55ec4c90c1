import Foundation

/// Third-party test data and the contract's worked example, kept once in `Tests/Data/`
/// (attributions in `Tests/DATA-SOURCES.md`), so tests run on a clean checkout.
enum TestData {
    /// `Tests/Data/`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data")

    /// The URL of `rel` below `Tests/Data/`.
    static func url(_ rel: String) -> URL { root.appendingPathComponent(rel) }

    /// The path of `rel` below `Tests/Data/`.
    static func path(_ rel: String) -> String { url(rel).path }
}
