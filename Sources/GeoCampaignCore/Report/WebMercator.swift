import Foundation

/// The Web Mercator projection (EPSG:3857) on a sphere of the WGS 84 equatorial radius: `x`
/// grows east, `y` north, both in projected meters. Latitudes are clamped to ±85.051129°, the
/// square's edge.
///
///     WebMercator.project(Coordinate(lat: 0, lon: 180)).x   // 20037508.34...
public enum WebMercator {
    /// The sphere's radius in meters.
    public static let radius = 6_378_137.0
    /// The largest latitude the projection keeps.
    public static let maxLatitude = 85.051_128_779_806_59

    /// The projected point of `c`.
    public static func project(_ c: Coordinate) -> (x: Double, y: Double) {
        let lat = min(max(c.lat, -maxLatitude), maxLatitude) * .pi / 180
        return (radius * c.lon * .pi / 180, radius * log(tan(.pi / 4 + lat / 2)))
    }

    /// Projected meters per meter on the ground at latitude `lat` (the scale factor `1 / cos lat`).
    public static func scale(atLatitude lat: Double) -> Double {
        1 / cos(min(max(lat, -maxLatitude), maxLatitude) * .pi / 180)
    }
}
