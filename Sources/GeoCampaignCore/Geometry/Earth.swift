import Foundation

/// The spherical Earth of semantics.md 1 and the haversine distance on it.
public enum Earth {
    /// Mean Earth radius in meters (R = 6,371,008.8 m).
    public static let radiusM = 6_371_008.8

    /// Degrees to radians.
    @inlinable public static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }

    /// Haversine great-circle distance in meters between two coordinates.
    /// - Complexity: O(1).
    @inlinable public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        distance(lat1: radians(a.lat), lon1: radians(a.lon), cosLat1: cos(radians(a.lat)),
                 lat2: radians(b.lat), lon2: radians(b.lon), cosLat2: cos(radians(b.lat)))
    }

    /// Haversine distance in meters from points given in radians with their latitude cosines
    /// precomputed (the hot path computes each fix's cosine once for all regions).
    /// - Complexity: O(1).
    @inlinable public static func distance(lat1: Double, lon1: Double, cosLat1: Double,
                                           lat2: Double, lon2: Double, cosLat2: Double) -> Double {
        let sdlat = sin((lat2 - lat1) * 0.5)
        let sdlon = sin((lon2 - lon1) * 0.5)
        let h = sdlat * sdlat + cosLat1 * cosLat2 * sdlon * sdlon
        return 2 * radiusM * asin(min(1, h.squareRoot()))
    }
}
