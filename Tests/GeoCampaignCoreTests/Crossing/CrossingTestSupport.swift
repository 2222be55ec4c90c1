import Foundation
@testable import GeoCampaignCore

/// Builders for crossing tests: a circle region at a fixed centre and fixes placed at a chosen
/// depth on its meridian (north of the centre), so that depths are exact to well under 1 cm.
enum CrossingTestSupport {
    static let center = Coordinate(lat: 45.0, lon: 10.0)
    static let radiusM = 100.0

    /// The coordinate at depth `d` meters in the test circle (distance `radius - d` due north).
    static func point(depth d: Double, center: Coordinate = center, radiusM: Double = radiusM) -> Coordinate {
        Coordinate(lat: center.lat + (radiusM - d) / Earth.radiusM * 180 / Double.pi, lon: center.lon)
    }

    /// A fix at `seconds` (may be fractional: milliseconds are kept) at depth `d`.
    static func fix(_ seconds: Double, depth d: Double, accuracy: Double = .nan) -> Fix {
        let p = point(depth: d)
        return Fix(time: ms(seconds), lat: p.lat, lon: p.lon, accuracy: accuracy)
    }

    static func ms(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

    /// A one-circle campaign with the given campaign-level tracking.
    static func campaign(tracking: Tracking = Tracking(), region: Region? = nil) -> Campaign {
        Campaign(id: "t", tracking: tracking,
                 regions: [region ?? Region(id: "c", shape: .circle(center: center, radiusM: radiusM))],
                 rules: [], offers: [])
    }
}
