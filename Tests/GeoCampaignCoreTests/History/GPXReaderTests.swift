import Foundation
import XCTest
@testable import GeoCampaignCore

/// GPX histories (formats.md 2.2).
final class HistoryGPXReaderTests: XCTestCase {
    func read(_ path: String, user: String? = nil, start: Int64 = GPXReader.defaultStart)
        throws -> (History, [RejectedLine]) {
        let builder = HistoryBuilder()
        var rejects: [RejectedLine] = []
        builder.onReject = { rejects.append($0) }
        try builder.read(path: path, gpxUser: user, gpxStart: start)
        return (builder.finish(), rejects)
    }

    func testFileWithoutTimesIsOneSecondApartFromStart() throws {
        let path = HistoryTestPaths.fixture("no-times.gpx")
        let (h, rejects) = try read(path)
        XCTAssertEqual(h.userIds, ["no-times"])
        // wpt, rtept, rtept, trkpt, (trkpt rejected), trkpt: document order, n-th point at start + n s.
        XCTAssertEqual(h.fixes[0].map(\.time), [0, 1, 2, 3, 5].map { 946_684_800_000 + Int64($0) * 1_000 })
        XCTAssertEqual(h.fixes[0].map(\.lat), [37.331705, 37.3318, 37.3319, 37.332, 37.3322])
        XCTAssertEqual(h.fixes[0].map(\.lon), [-122.030237, -122.0303, -122.0304, -122.0305, -122.0307])
        XCTAssertTrue(h.fixes[0].allSatisfy { $0.accuracy.isNaN })
        XCTAssertEqual(rejects.map(\.reason), [.outOfRange])
        XCTAssertEqual(rejects.map(\.line), [11])
        XCTAssertEqual(String(decoding: rejects[0].text, as: UTF8.self), #"    <trkpt lat="95.0" lon="-122.030600"/>"#)
        XCTAssertEqual(h.stats.linesRead, 6)

        let (h2, _) = try read(path, user: "sim", start: RFC3339.parse("2026-11-29T10:00:00Z") ?? 0)
        XCTAssertEqual(h2.userIds, ["sim"])
        XCTAssertEqual(h2.fixes[0].first?.time, 1_795_946_400_000)
    }

    func testFileWithTimes() throws {
        let (h, rejects) = try read(HistoryTestPaths.fixture("mixed-times.gpx"))
        let base: Int64 = 1_286_098_590_000 // 2010-10-03T09:36:30Z
        XCTAssertEqual(h.fixes[0].map(\.time), [base, base + 1_251, base + 2_000, base + 7_000])
        XCTAssertEqual(h.fixes[0].map(\.lat), [45.1, 45.2, 45.3, 45.9])
        XCTAssertEqual(rejects.map(\.reason), [.badTimestamp, .badTimestamp, .badType, .missingField, .outOfRange])
        XCTAssertEqual(rejects.map(\.line), [7, 8, 9, 10, 11])
    }

    func testMalformedXMLIsAClearError() {
        XCTAssertThrowsError(try read(HistoryTestPaths.fixture("malformed.gpx"))) { error in
            guard case HistoryError.malformedGPX(let path, let line, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("malformed.gpx"))
            XCTAssertEqual(line, 5)
            XCTAssertTrue("\(error)".contains("malformed.gpx:5:"), "\(error)")
            XCTAssertTrue("\(error)".contains("closing tag does not match"), "\(error)")
        }
        XCTAssertThrowsError(try read(HistoryTestPaths.fixture("not-gpx.kml.gpx"))) { error in
            guard case HistoryError.malformedGPX = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try GPXReader.parse(data: Data("<gpx><trkpt".utf8), path: "x.gpx"))
        XCTAssertThrowsError(try GPXReader.parse(data: Data(), path: "x.gpx"))
    }

    func testRealTracks() throws {
        let cases: [(String, Int, Int, String, String, UInt)] = [
            ("gpxpy/around-visnjan-with-car.gpx", 104, 0, "2020-12-18T06:15:50Z", "2020-12-18T06:24:24Z", #line),
            // Seven waypoints, six of them without a time.
            ("gpxpy/cerknicko-jezero.gpx", 297, 6, "2010-08-05T14:23:59Z", "2010-08-05T16:23:49Z", #line),
            // A 358-point track without times next to two timed tracks, and two waypoints without times.
            ("gpxpy/korita-zbevnica.gpx", 513, 360, "2010-10-03T09:36:30Z", "2010-10-03T13:19:31Z", #line),
            ("georust-gpx/garmin-activity.gpx", 988, 0, "2017-07-29T14:46:35Z", "2017-07-29T16:18:13Z", #line),
            ("togeojson/run.gpx", 206, 0, "2012-10-24T23:29:40Z", "2012-10-24T23:45:28Z", #line),
        ]
        for (rel, fixes, rejected, first, last, at) in cases {
            let (h, rejects) = try read(HistoryTestPaths.sharedPath("data/tracks/" + rel))
            XCTAssertEqual(h.userCount, 1, line: at)
            XCTAssertEqual(h.fixes.first?.count, fixes, rel, line: at)
            XCTAssertEqual(rejects.count, rejected, rel, line: at)
            XCTAssertTrue(rejects.allSatisfy { $0.reason == .badTimestamp }, line: at)
            XCTAssertEqual(h.fixes.first?.first?.time, RFC3339.parse(first), rel, line: at)
            XCTAssertEqual(h.fixes.first?.last?.time, RFC3339.parse(last), rel, line: at)
            XCTAssertEqual(h.stats.linesRead, fixes + rejected, line: at)
        }
        let (h, _) = try read(HistoryTestPaths.sharedPath("data/tracks/georust-gpx/garmin-activity.gpx"))
        XCTAssertEqual(h.userIds, ["garmin-activity"])
        XCTAssertEqual(h.fixes[0][0].lat, 37.24173816852271556854248046875)
        XCTAssertEqual(h.fixes[0][0].lon, -121.9723242335021495819091796875)
    }

    func testDefaultUserAndFormatChoice() {
        XCTAssertEqual(HistoryBuilder.defaultUser(forGPXPath: "tracks/run.gpx"), "run")
        XCTAssertEqual(HistoryBuilder.defaultUser(forGPXPath: "a.b.GPX"), "a.b")
        XCTAssertEqual(HistoryBuilder.defaultUser(forGPXPath: ".gpx"), ".gpx")
        XCTAssertTrue(HistoryBuilder.isGPX(path: "x/Y.GPX"))
        XCTAssertFalse(HistoryBuilder.isGPX(path: "x.jsonl"))
    }
}
