import XCTest
@testable import GeoCampaignCore

/// Real GPS tracks (Tests/Data/tracks, see Tests/DATA-SOURCES.md): regions placed where the track
/// stops find those stops as visits; regions the track only passes find nothing.
final class RealTrackTests: XCTestCase {
    static let tracks = TestData.url("tracks")

    /// Test-only GPX extraction: timed `trkpt`s, by regex (the real GPX reader is History's).
    static func gpxFixes(_ name: String) throws -> [Fix] {
        let text = try String(contentsOf: tracks.appendingPathComponent(name), encoding: .utf8)
        let re = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">(?:(?!</trkpt>).)*?<time>([^<]+)</time>"#,
                                         options: [.dotMatchesLineSeparators])
        var out: [Fix] = []
        for m in re.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let lat = Range(m.range(at: 1), in: text).flatMap({ Double(text[$0]) }),
                  let lon = Range(m.range(at: 2), in: text).flatMap({ Double(text[$0]) }),
                  let ts = Range(m.range(at: 3), in: text).flatMap({ ConformanceHistory.rfc3339(String(text[$0])) }) else { continue }
            out.append(Fix(time: ts, lat: lat, lon: lon))
        }
        return out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Test-only reader of trackintel's `;` CSV: user_id;tracked_at;latitude;longitude;elevation;accuracy.
    static func googleFixes() throws -> [Fix] {
        let text = try String(contentsOf: tracks.appendingPathComponent("trackintel/google_trajectory.csv"), encoding: .utf8)
        var out: [Fix] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ";").map(String.init)
            guard f.count >= 6, let ts = ConformanceHistory.rfc3339(f[1]), let lat = Double(f[2]), let lon = Double(f[3]),
                  let acc = Double(f[5].trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            out.append(Fix(time: ts, lat: lat, lon: lon, accuracy: acc))
        }
        return out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    struct Stay { var start: Int64; var end: Int64; var centre: Coordinate; var maxRadius: Double }

    /// Stays: at least 2 minutes within 50 m of the stay's first fix, not across a gap over max_gap.
    static func stays(_ fixes: [Fix], maxGapMs: Int64 = 1_800_000) -> [Stay] {
        var out: [Stay] = []
        var i = 0
        while i < fixes.count {
            var j = i
            let a = Coordinate(lat: fixes[i].lat, lon: fixes[i].lon)
            while j + 1 < fixes.count && fixes[j + 1].time - fixes[j].time <= maxGapMs
                    && Earth.distance(a, Coordinate(lat: fixes[j + 1].lat, lon: fixes[j + 1].lon)) <= 50 { j += 1 }
            if fixes[j].time - fixes[i].time >= 120_000 {
                let part = fixes[i...j]
                let c = Coordinate(lat: part.map(\.lat).reduce(0, +) / Double(part.count), lon: part.map(\.lon).reduce(0, +) / Double(part.count))
                let r = part.map { Earth.distance(c, Coordinate(lat: $0.lat, lon: $0.lon)) }.max() ?? 0
                out.append(Stay(start: fixes[i].time, end: fixes[j].time, centre: c, maxRadius: r))
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    @discardableResult
    func check(fixes all: [Fix], passes: [Coordinate], expectedStays: Int, file: StaticString = #filePath, line: UInt = #line) -> [Visit] {
        let used = all.filter { $0.isUsed(maxAccuracy: 100) }
        let stays = Self.stays(used)
        XCTAssertEqual(stays.count, expectedStays, "stays found", file: file, line: line)
        // 80 m circles at each stay (h 20 m: IN within 60 m of the centre), 50 m circles at passes.
        let stayRegions = stays.enumerated().map { Region(id: "stay\($0.offset)", shape: .circle(center: $0.element.centre, radiusM: 80)) }
        let passRegions = passes.enumerated().map { Region(id: "pass\($0.offset)", shape: .circle(center: $0.element, radiusM: 50)) }
        let campaign = Campaign(id: "real", regions: stayRegions + passRegions, rules: [], offers: [])
        let visits = CrossingEngine(campaign: campaign, settings: Settings()).visits(fixes: all, tEnd: all.last?.time ?? 0)
        var checked = 0
        for (k, stay) in stays.enumerated() where stay.maxRadius < 60 {
            checked += 1
            let covering = visits.filter { $0.region == Int32(k) && $0.enter <= stay.start && ($0.exit ?? $0.lastSeen) >= stay.end }
            XCTAssertEqual(covering.count, 1, "stay \(k) from \(Timestamp.string(stay.start)) to \(Timestamp.string(stay.end))", file: file, line: line)
        }
        XCTAssertGreaterThanOrEqual(checked, expectedStays - 1, file: file, line: line)
        let passed = visits.filter { $0.region >= Int32(stays.count) }
        XCTAssertEqual(passed, [], "regions the track only passes", file: file, line: line)
        XCTAssertTrue(visits.allSatisfy { $0.region < Int32(stays.count) })
        return visits
    }

    /// Lake Cerknica walk: 296 timed points, 8 s median interval; 9 stops (SOURCES.md).
    func testCerknicaWalkStopsAreVisitsAndPassesAreNot() throws {
        let fixes = try Self.gpxFixes("gpxpy/cerknicko-jezero.gpx")
        XCTAssertEqual(fixes.count, 296)
        // Points where the walker moved on: no other fix within 80 m for more than 13 s.
        let passes = [Coordinate(lat: 45.756222848, lon: 14.362483202), Coordinate(lat: 45.760427546, lon: 14.362401478)]
        check(fixes: fixes, passes: passes, expectedStays: 9)
    }

    /// Google location history, Zürich: fixes every 60 s, half of them with accuracy 697 m (ignored).
    func testZurichHistoryStopsAreVisitsAndPassesAreNot() throws {
        let fixes = try Self.googleFixes()
        XCTAssertEqual(fixes.count, 416)
        XCTAssertEqual(fixes.filter { !$0.isUsed(maxAccuracy: 100) }.count, 199)
        let passes = [Coordinate(lat: 47.3723031, lon: 8.5488622), Coordinate(lat: 47.3695027, lon: 8.5495284),
                      Coordinate(lat: 47.3709824, lon: 8.5433658)]
        let visits = check(fixes: fixes, passes: passes, expectedStays: 11)
        // The long stop 12:21-13:26 UTC (49 used fixes) is one visit of more than an hour.
        XCTAssertTrue(visits.contains { $0.duration >= 3_900_000 && $0.enter <= ConformanceHistory.rfc3339("2012-12-18T12:21:40Z") ?? 0 })
    }
}
