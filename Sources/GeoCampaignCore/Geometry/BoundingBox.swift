import Foundation

/// An axis-aligned box in the (lon, lat) plane, in degrees, bounds included.
public struct BoundingBox: Sendable, Equatable {
    /// Southern edge (degrees latitude).
    public var minLat: Double
    /// Northern edge (degrees latitude).
    public var maxLat: Double
    /// Western edge (degrees longitude).
    public var minLon: Double
    /// Eastern edge (degrees longitude).
    public var maxLon: Double

    /// Creates a box from its edges.
    public init(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) {
        self.minLat = minLat
        self.maxLat = maxLat
        self.minLon = minLon
        self.maxLon = maxLon
    }

    /// Whether the point lies in the box (edges included).
    /// - Complexity: O(1).
    @inlinable public func contains(lat: Double, lon: Double) -> Bool {
        lat >= minLat && lat <= maxLat && lon >= minLon && lon <= maxLon
    }

    /// The box grown by `meters` on every side: latitude by `meters / R`, longitude by
    /// `meters / (R cos φ)` with φ the grown box's latitude farthest from the equator, so that every
    /// point within `meters` of the box (in the local projection of semantics.md 1) lies in the
    /// result. Reaching within 0.01 degree of a pole spans all longitudes.
    public func expanded(byMeters meters: Double) -> BoundingBox {
        let dLat = meters / Earth.radiusM * (180 / Double.pi)
        let south = max(-90, minLat - dLat), north = min(90, maxLat + dLat)
        let polar = max(abs(south), abs(north))
        if polar >= 89.99 {
            return BoundingBox(minLat: south, maxLat: north, minLon: -180, maxLon: 180)
        }
        let dLon = dLat / cos(Earth.radians(polar))
        return BoundingBox(minLat: south, maxLat: north, minLon: minLon - dLon, maxLon: maxLon + dLon)
    }

    /// The box clipped to longitudes -180...180, plus the part that wrapped across the antimeridian
    /// if any (for circles near it, whose haversine distance wraps).
    public func wrappedParts() -> [BoundingBox] {
        var parts: [BoundingBox] = []
        forEachWrappedPart { parts.append($0) }
        return parts
    }

    /// Calls `body` with each of `wrappedParts()`, in that order, without an array (the region
    /// index's entries are built from it for every region).
    @inline(__always)
    public func forEachWrappedPart(_ body: (BoundingBox) -> Void) {
        if minLon <= -180 && maxLon >= 180 || maxLon - minLon >= 360 {
            body(BoundingBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180))
            return
        }
        body(BoundingBox(minLat: minLat, maxLat: maxLat, minLon: max(-180, minLon), maxLon: min(180, maxLon)))
        if minLon < -180 {
            body(BoundingBox(minLat: minLat, maxLat: maxLat, minLon: minLon + 360, maxLon: 180))
        }
        if maxLon > 180 {
            body(BoundingBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon - 360))
        }
    }
}
