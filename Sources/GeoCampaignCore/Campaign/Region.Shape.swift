extension Region {
    /// The geometry of a region.
    public enum Shape: Sendable {
        /// A circle: center and radius in meters.
        case circle(center: Coordinate, radiusM: Double)
        /// One or more polygon parts (a GeoJSON MultiPolygon is one region); even-odd containment.
        case polygon([PolygonPart])
    }

    /// One polygon: an outer ring and its holes. Rings are stored without the repeated closing point.
    public struct PolygonPart: Sendable {
        /// The outer ring, at least 3 distinct points, not closed.
        public var outer: [Coordinate]
        /// Holes, each a ring not closed.
        public var holes: [[Coordinate]]

        /// Creates a polygon part.
        public init(outer: [Coordinate], holes: [[Coordinate]] = []) {
            self.outer = outer
            self.holes = holes
        }
    }
}
