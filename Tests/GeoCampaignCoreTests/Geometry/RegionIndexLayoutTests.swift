import XCTest
@testable import GeoCampaignCore

/// The index's cells and items, compared with a listing built the plain way: every entry, in
/// entry order, appended to each of its cells on its level, with its part of each cell computed
/// from the box there (not by the index's counting sort and edge fractions).
final class RegionIndexLayoutTests: XCTestCase {
    /// The cell starts and items of `index`, as the plain listing of its entries wants them:
    /// the differences, empty when they agree.
    static func layoutDifferences(_ index: RegionIndex) -> [String] {
        let boxes = index.entryBoxes.elements, owners = index.owners.elements
        let levels = Array(index.levels.elements), slots = Array(index.slots.elements)
        let starts = index.starts.elements, items = index.items.elements
        let valid = boxes.indices.filter { boxes[$0].minLat <= boxes[$0].maxLat && boxes[$0].minLon <= boxes[$0].maxLon }
        let wanted = valid.map { RegionIndex.desiredExponent(max(boxes[$0].maxLat - boxes[$0].minLat, boxes[$0].maxLon - boxes[$0].minLon)) }
        let base = wanted.min() ?? RegionIndex.minExponent
        var expected: [Int: [(owner: Int32, box: [UInt8])]] = [:]
        var problems: [String] = []
        for (k, n) in valid.enumerated() {
            var exponent = base
            while exponent < wanted[k] { exponent += 2 }
            let inv = 1 / RegionIndex.cellSize(exponent)
            guard let level = levels.first(where: { $0.invCell == inv }) else {
                problems.append("no level of exponent \(exponent) for entry \(n)")
                continue
            }
            let b = boxes[n]
            let x0 = RegionIndex.cellIndex(b.minLon + 180, inv), x1 = RegionIndex.cellIndex(b.maxLon + 180, inv)
            let y0 = RegionIndex.cellIndex(b.minLat + 90, inv), y1 = RegionIndex.cellIndex(b.maxLat + 90, inv)
            for y in y0...y1 {
                for x in x0...x1 {
                    let cell: Int
                    if level.width > 0 {
                        cell = level.runBase + Int((y - level.y0) * level.width + (x - level.x0))
                    } else {
                        let s = CellTable.find(CellTable.tileKey(x, y), in: slots, base: level.slotBase, capacity: level.mask + 1, shift: level.shift)
                        cell = slots[s].base + CellTable.offsetInTile(x, y)
                    }
                    let part = [y == y0 ? RegionIndex.CellBox.fraction((b.minLat + 90) * inv, y) : 0,
                                y == y1 ? RegionIndex.CellBox.fraction((b.maxLat + 90) * inv, y) : 255,
                                x == x0 ? RegionIndex.CellBox.fraction((b.minLon + 180) * inv, x) : 0,
                                x == x1 ? RegionIndex.CellBox.fraction((b.maxLon + 180) * inv, x) : 255]
                    expected[cell, default: []].append((owners[n], part))
                }
            }
        }
        for c in expected.keys.sorted() {
            let listed = (Int(starts[c])..<Int(starts[c + 1])).map { items[$0] }
            let want = expected[c] ?? []
            let same = listed.count == want.count && zip(listed, want).allSatisfy {
                $0.owner == $1.owner && [$0.box.lat0, $0.box.lat1, $0.box.lon0, $0.box.lon1] == $1.box
            }
            if !same { problems.append("cell \(c): \(listed.map { "\($0.owner)" }) against \(want.map { "\($0.owner)" })") }
        }
        let total = expected.values.reduce(0) { $0 + $1.count }
        if total != items.count { problems.append("\(items.count) items against \(total)") }
        if zip(starts, starts.dropFirst()).contains(where: { $0 > $1 }) { problems.append("the starts decrease") }
        return problems
    }

    /// A city's regions (a dense level), regions spread over the globe and across the
    /// antimeridian (tiled levels), and many boxes on the same cells, so that the order of a
    /// cell's items shows.
    func testCellsAndItemsAreThePlainListingOfTheEntries() {
        var rng = SplitMix64(seed: 15)
        let city = Coordinate(lat: 47.37, lon: 8.54)
        var regions = RegionIndexTests.randomRegions(3_000, rng: &rng, around: city, spreadDeg: 0.05, sizes: [40, 100, 250, 600])
        regions += RegionIndexTests.randomRegions(600, rng: &rng)
        let engine = CrossingEngine(campaign: Campaign(id: "x", regions: regions, rules: [], offers: []), settings: Settings())
        let index = engine.index
        XCTAssertTrue(index.levels.elements.contains { $0.width > 0 }, "a dense level")
        XCTAssertTrue(index.levels.elements.contains { $0.width == 0 }, "a tiled level")
        XCTAssertGreaterThan(index.items.count, 3 * index.entryBoxes.count, "boxes listed in several cells")
        withExtendedLifetime(index) {
            XCTAssertEqual(Self.layoutDifferences(index).prefix(5), [])
        }
    }
}
