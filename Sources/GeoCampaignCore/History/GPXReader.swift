import Foundation

/// Reads a GPX file's `trkpt`, `rtept` and `wpt` points, in document order, as fixes of one user
/// (formats.md 2.2).
///
/// Points with a `<time>` child use it (RFC 3339; without offset it is UTC). In a file where any
/// point has a `<time>`, a point without one (or with an unreadable one) is rejected
/// `bad_timestamp`. In a file without any point time, the n-th point (0-based, counting every point
/// in document order) gets `start + n` seconds. A missing `lat`/`lon` attribute is
/// `missing_field`, one that is not an `xsd:decimal` (hex floats, `nan`, `infinity`, exponents)
/// `bad_type`, an out-of-range one `out_of_range`. A reject is at the line where the point's
/// start tag begins (docs/history-format.md, GPX).
///
/// The XML is read by `XMLStreamReader` (libxml2, nothing outside the file is loaded); a file
/// that is not well-formed, or whose root is not `gpx`, throws with line and column.
public enum GPXReader {
    /// 2000-01-01T00:00:00Z in Unix milliseconds, the default `--start`.
    public static let defaultStart: Int64 = 946_684_800_000

    /// One point of the file: a fix, or why it was rejected.
    public enum Item: Sendable, Equatable {
        /// An accepted point.
        case fix(Fix)
        /// A rejected point; `line` is the XML line where the point starts.
        case rejected(RejectedLine)
    }

    /// The points of one GPX file.
    public struct Result: Sendable {
        /// Every point in document order.
        public var items: [Item]
    }

    /// A point as the XML gives it, before its values are checked.
    struct RawPoint {
        var lat: String?
        var lon: String?
        /// The text of its `<time>` child, if it has one.
        var time: [UInt8]?
        /// The first entity reference met inside `<time>` (not expanded), as `&name;`.
        var timeEntity: String?
        /// Which start tag of the document it is (0-based), to find where it begins.
        var ordinal: Int
        /// The line where libxml2 saw its start tag end, used if the tag cannot be located.
        var nodeLine: Int
    }

    /// Reads and parses `path`.
    /// - Parameter start: Unix ms of the first point when the file has no times.
    /// - Throws: `HistoryError.cannotOpen` or `.malformedGPX` (with line and column).
    public static func read(path: String, start: Int64 = defaultStart) throws -> Result {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HistoryError.cannotOpen(path: path, reason: "no such file or not readable")
        }
        return try parse(data: data, path: path, start: start)
    }

    /// Parses GPX bytes; `path` is used in errors and rejected lines.
    public static func parse(data: Data, path: String, start: Int64 = defaultStart) throws -> Result {
        try parse(bytes: [UInt8](data), path: path, start: start)
    }

    /// Parses GPX bytes; `path` is used in errors and rejected lines.
    /// - Throws: `HistoryError.malformedGPX` with libxml2's line and column.
    /// - Complexity: O(n) in the size of the file; each reject's `text` is at most
    ///   `GPXTagLocator.maxExcerpt` bytes.
    public static func parse(bytes: [UInt8], path: String, start: Int64 = defaultStart) throws -> Result {
        let scanned = utf8View(bytes)
        var locator = GPXTagLocator(bytes: scanned)
        let points: [RawPoint]
        do {
            points = try collectPoints(XMLStreamReader(bytes: bytes)) { name in
                let at = locator.place(ofTag: 0)
                return HistoryError.malformedGPX(path: path, line: at?.line ?? 1, column: at?.column ?? 1,
                                                 message: "root element is <\(clip(name))>, not <gpx>")
            }
        } catch let e as XMLSyntaxError {
            throw HistoryError.malformedGPX(path: path, line: e.line, column: e.column, message: e.message)
        }
        let hasTimes = points.contains { $0.time != nil }
        var items: [Item] = []
        items.reserveCapacity(points.count)
        for (n, point) in points.enumerated() {
            func reject(_ reason: RejectReason, _ detail: String) {
                let place = locator.place(ofTag: point.ordinal)
                items.append(.rejected(RejectedLine(path: path, line: place?.line ?? point.nodeLine, reason: reason,
                                                    detail: detail, text: place.map(locator.excerpt) ?? [])))
            }
            let time: Int64
            if hasTimes {
                guard let raw = point.time else {
                    reject(.badTimestamp, "point has no <time> in a file whose other points have one")
                    continue
                }
                if let entity = point.timeEntity {
                    reject(.badTimestamp, "<time> holds the entity reference \(clip(entity)), which is not expanded")
                    continue
                }
                let text = String(decoding: raw, as: UTF8.self)
                guard let t = RFC3339.parseAssumingUTC(trimmedXMLSpace(text)) else {
                    reject(.badTimestamp, "<time>\(clip(text))</time> is not an RFC 3339 timestamp in years 0001-9999")
                    continue
                }
                time = t
            } else {
                time = start + Int64(n) * 1_000
            }
            var coords: [Double] = []
            for (name, value, limit) in [("lat", point.lat, 90.0), ("lon", point.lon, 180.0)] {
                guard let raw = value else {
                    reject(.missingField, "point has no \(name) attribute")
                    break
                }
                guard let v = XSDDecimal.parse(raw) else {
                    reject(.badType, "\(name)=\"\(clip(raw))\" is not a decimal number (GPX writes 47.3769, without exponent)")
                    break
                }
                guard v >= -limit && v <= limit else {
                    reject(.outOfRange, "\(name)=\"\(clip(raw))\" is outside [\(-Int(limit)), \(Int(limit))]")
                    break
                }
                coords.append(v)
            }
            if coords.count == 2 { items.append(.fix(Fix(time: time, lat: coords[0], lon: coords[1]))) }
        }
        return Result(items: items)
    }

    /// Walks the document and keeps its points; `notGPX` makes the error for a root that is not `<gpx>`.
    static func collectPoints(_ reader: XMLStreamReader, notGPX: (String) -> Error) throws -> [RawPoint] {
        var points: [RawPoint] = []
        var current: RawPoint?
        var pointDepth = -1
        var inTime = false
        var ordinal = -1
        while let kind = try reader.next() {
            switch kind {
            case .start(let isEmpty):
                ordinal += 1
                let depth = reader.depth
                if ordinal == 0 && !reader.localNameIs("gpx") { throw notGPX(reader.name) }
                if current == nil {
                    guard reader.localNameIs("trkpt") || reader.localNameIs("rtept") || reader.localNameIs("wpt") else { continue }
                    let point = RawPoint(lat: reader.attribute("lat"), lon: reader.attribute("lon"), time: nil,
                                         timeEntity: nil, ordinal: ordinal, nodeLine: reader.nodeLine)
                    if isEmpty { points.append(point) } else { current = point; pointDepth = depth }
                } else if !inTime && depth == pointDepth + 1 && reader.localNameIs("time") {
                    current?.time = []
                    current?.timeEntity = nil
                    inTime = !isEmpty
                }
            case .end:
                let depth = reader.depth
                if inTime && depth == pointDepth + 1 {
                    inTime = false
                } else if let point = current, depth == pointDepth {
                    points.append(point)
                    current = nil
                    pointDepth = -1
                }
            case .text:
                if inTime { current?.time?.append(contentsOf: reader.value) }
            case .entityReference:
                if inTime && current?.timeEntity == nil { current?.timeEntity = "&" + reader.name + ";" }
            case .other:
                break
            }
        }
        return points
    }

    /// `text` without XML white space (space, tab, CR, LF) at either end.
    static func trimmedXMLSpace(_ text: String) -> String {
        var u = Substring(text).utf8[...]
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while let b = u.first, isSpace(b) { u = u.dropFirst() }
        while let b = u.last, isSpace(b) { u = u.dropLast() }
        return String(decoding: u, as: UTF8.self)
    }

    /// At most 64 characters of `text` for a message, with `…` when cut.
    static func clip(_ text: String) -> String {
        var out = ""
        var n = 0
        for c in text.unicodeScalars {
            if n == 64 { return out + "…" }
            out.unicodeScalars.append(c)
            n += 1
        }
        return out
    }

    /// The document as UTF-8 for `GPXTagLocator`: UTF-16 (by byte order mark, or `<?` written
    /// in UTF-16) is transcoded; anything else is returned as it is.
    static func utf8View(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 2 else { return bytes }
        let bigEndian: Bool
        var from = 0
        switch (bytes[0], bytes[1]) {
        case (0xFE, 0xFF): bigEndian = true; from = 2
        case (0xFF, 0xFE): bigEndian = false; from = 2
        case (0x00, 0x3C): bigEndian = true
        case (0x3C, 0x00): bigEndian = false
        default: return bytes
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - from) / 2)
        var k = from
        while k + 1 < bytes.count {
            units.append(bigEndian ? UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]) : UInt16(bytes[k + 1]) << 8 | UInt16(bytes[k]))
            k += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
}
