import XCTest
@testable import GeoCampaignCore

/// The command-line tool fixes glibc's mmap threshold at start (`ProcessMemory.mapLargeBlocks`).
final class ProcessMemoryTests: XCTestCase {
    /// `mallopt` is found in the C library and takes the setting. (It is not in the Glibc
    /// module, so a lookup by a wrong name would leave the tool on the default silently: checked
    /// once with the name misspelt, which makes this test fail.) What the setting does to the
    /// peak of a large load is measured, not tested (docs/performance.md).
    func testTheMmapThresholdIsSet() {
        #if os(Linux)
        XCTAssertTrue(ProcessMemory.mapLargeBlocks())
        #else
        XCTAssertFalse(ProcessMemory.mapLargeBlocks())
        #endif
    }
}
