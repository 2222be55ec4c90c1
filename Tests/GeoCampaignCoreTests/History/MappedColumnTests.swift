import XCTest
@testable import GeoCampaignCore

final class MappedColumnTests: XCTestCase {
    /// A column that may use huge pages and reserves 4 MiB or more starts on a 2 MiB boundary
    /// (so that it can be huge pages from its first byte), and keeps its values while it grows,
    /// as does a small one (whose start only needs the element's alignment).
    func testLargeColumnsStartOnA2MiBBoundaryAndKeepTheirValues() {
        for (capacity, aligned) in [(1 << 20, true), (200_000, true), (5_000, false)] {
            let column = MappedColumn<Fix>(capacity: capacity)
            if aligned { XCTAssertEqual(Int(bitPattern: column.base) % (2 << 20), 0, "capacity \(capacity)") }
            for i in 0..<(3 * capacity / 2) {
                column.append(Fix(time: Int64(i), lat: Double(i % 90), lon: 1))
            }
            if aligned { XCTAssertEqual(Int(bitPattern: column.base) % (2 << 20), 0, "grown from \(capacity)") }
            XCTAssertEqual(column.count, 3 * capacity / 2)
            XCTAssertTrue((0..<column.count).allSatisfy { column.base[$0].time == Int64($0) && column.base[$0].lat == Double($0 % 90) })
        }
        let zeroed = MappedColumn<Int32>(zeroed: 3 << 20, hugePages: true)
        XCTAssertEqual(Int(bitPattern: zeroed.base) % (2 << 20), 0)
        XCTAssertTrue((0..<zeroed.count).allSatisfy { zeroed.base[$0] == 0 })
    }
}
