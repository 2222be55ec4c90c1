/// Where a point lies relative to a region: the side and the signed depth (semantics.md 1).
public struct Placement: Sendable, Equatable {
    /// Which side of the boundary the point is on.
    public enum Side: Sendable, Equatable {
        /// Depth greater than the boundary tolerance.
        case inside
        /// Within `RegionGeometry.boundaryToleranceM` of the boundary (depth exactly 0).
        case boundary
        /// Depth less than minus the boundary tolerance.
        case outside
    }

    /// Signed depth in meters: positive inside, negative outside, 0 on the boundary.
    public var depthM: Double

    /// Creates a placement from a signed depth (already snapped to 0 within the tolerance).
    public init(depthM: Double) { self.depthM = depthM }

    /// The side the depth says.
    public var side: Side { depthM > 0 ? .inside : (depthM < 0 ? .outside : .boundary) }
}
