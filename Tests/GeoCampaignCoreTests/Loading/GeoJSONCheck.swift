import XCTest

/// Asserts that a text is an RFC 7946 FeatureCollection of Polygon/MultiPolygon features with
/// closed rings, exteriors counter-clockwise and holes clockwise.
enum GeoJSONCheck {
    static func signedArea(_ ring: [[Double]]) -> Double {
        var s = 0.0
        for i in 0..<(ring.count - 1) { s += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1] }
        return s / 2
    }

    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }

    /// Checks RFC 7946 structure and returns the features.
    static func features(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(obj["type"] as? String, "FeatureCollection", file: file, line: line)
        let features = try XCTUnwrap(obj["features"] as? [[String: Any]])
        for f in features {
            XCTAssertEqual(f["type"] as? String, "Feature")
            let g = try XCTUnwrap(f["geometry"] as? [String: Any])
            let type = try XCTUnwrap(g["type"] as? String)
            let polys: [[[[Double]]]]
            if type == "Polygon" {
                polys = [try XCTUnwrap(g["coordinates"] as? [[[Double]]])]
            } else {
                XCTAssertEqual(type, "MultiPolygon")
                polys = try XCTUnwrap(g["coordinates"] as? [[[[Double]]]])
            }
            for poly in polys {
                for (i, ring) in poly.enumerated() {
                    XCTAssertGreaterThanOrEqual(ring.count, 4, "a ring has at least 4 positions", file: file, line: line)
                    XCTAssertEqual(ring.first, ring.last, "rings are closed", file: file, line: line)
                    for p in ring {
                        XCTAssertEqual(p.count, 2)
                        XCTAssertTrue((-180.0...180.0).contains(p[0]) && (-90.0...90.0).contains(p[1]))
                    }
                    if i == 0 {
                        XCTAssertGreaterThan(signedArea(ring), 0, "exterior rings are counter-clockwise", file: file, line: line)
                    } else {
                        XCTAssertLessThan(signedArea(ring), 0, "holes are clockwise", file: file, line: line)
                    }
                }
            }
        }
        return features
    }
}
