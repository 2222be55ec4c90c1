import Foundation

extension CrossingCore {
    /// What the crossing looks regions up by: the region index and the inside boxes. Both need
    /// only the regions' heads (circles, polygons' bounds), not their vertices, so a large set
    /// builds them on another core while the vertices and edge chunks are written
    /// (`CampaignCrossing.init`).
    struct Lookup: Sendable {
        /// Index over each region's box grown by its hysteresis plus `CrossingEngine.indexMarginM`.
        let index: RegionIndex
        /// Per region: a box outside which no fix is IN, as floats rounded outward.
        let insideBoxes: FixedBuffer<RegionIndex.FloatBox>

        /// The lookup of regions with heads `heads` (`CompiledGeometry.heads`) and hysteresis
        /// `hysteresisM` (as long as `heads`).
        /// - Complexity: O(n log n) for n regions, plus the cells of the index's dense levels.
        init(heads: [RegionGeometry], hysteresisM: [Double]) {
            var entries: [(box: BoundingBox, owner: Int32)] = []
            entries.reserveCapacity(heads.count)
            HugePages.advise(storageOf: &entries)
            // By index, not `enumerated()`: that copies each head (a retain and release of its arrays).
            for r in heads.indices {
                let grown = heads[r].bounds(expandedByMeters: max(0, hysteresisM[r]) + CrossingEngine.indexMarginM)
                grown.forEachWrappedPart { entries.append(($0, Int32(r))) }
            }
            index = RegionIndex(entries: entries)
            // Where a fix can be IN a region at all: its own box grown by far more than the
            // boundary tolerance (a depth within it counts as 0, IN when the hysteresis is 0);
            // the whole globe for a box that wraps across the antimeridian or reaches a pole.
            // Written in place (no array copied into the buffer).
            insideBoxes = FixedBuffer(count: heads.count) { out in
                for r in heads.indices {
                    let b = heads[r].bounds(expandedByMeters: CrossingCore.insideMarginM)
                    let whole = b.minLon <= -180 || b.maxLon >= 180 || b.minLat <= -90 || b.maxLat >= 90
                    out.initializeElement(at: r, to: RegionIndex.FloatBox(whole ? BoundingBox(minLat: -90, maxLat: 90, minLon: -180, maxLon: 180) : b))
                }
            }
        }
    }
}
