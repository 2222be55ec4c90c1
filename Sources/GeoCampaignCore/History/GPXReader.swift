import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a GPX file's `trkpt`, `rtept` and `wpt` points, in document order, as fixes of one user
/// (formats.md 2.2).
///
/// Points with a `<time>` child use it (RFC 3339; without offset it is UTC). In a file where any
/// point has a `<time>`, a point without one (or with an unreadable one) is rejected
/// `bad_timestamp`. In a file without any point time, the n-th point (0-based, counting every point
/// in document order) gets `start + n` seconds. A missing `lat`/`lon` attribute is
/// `missing_field`, a non-numeric one `bad_type`, a non-finite or out-of-range one `out_of_range`.
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

    struct RawPoint {
        var lat: String?
        var lon: String?
        var time: String?
        var line: Int
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var points: [RawPoint] = []
        var current: RawPoint?
        var depth = 0
        var pointDepth = -1
        var collectingTime = false
        var timeText = ""
        var rootName: String?
        /// The first XML error: (code, line, column).
        var error: (Int, Int, Int)?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil {
                error = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber)
            }
        }

        static func local(_ name: String) -> String {
            if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
            return name
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            depth += 1
            let name = Delegate.local(elementName)
            if rootName == nil { rootName = name }
            if current == nil {
                if name == "trkpt" || name == "rtept" || name == "wpt" {
                    current = RawPoint(lat: attributeDict["lat"], lon: attributeDict["lon"], time: nil,
                                       line: parser.lineNumber)
                    pointDepth = depth
                }
            } else if depth == pointDepth + 1 && name == "time" {
                collectingTime = true
                timeText = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if collectingTime { timeText += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if collectingTime { timeText += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            if collectingTime && depth == pointDepth + 1 {
                collectingTime = false
                current?.time = timeText
            } else if depth == pointDepth, let point = current {
                points.append(point)
                current = nil
                pointDepth = -1
            }
            depth -= 1
        }
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
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let delegate = Delegate()
        parser.delegate = delegate
        let ok = parser.parse()
        // XMLParser on Linux can report success after an error: check every signal.
        if let (code, line, column) = delegate.error {
            throw HistoryError.malformedGPX(path: path, line: line, column: column, message: xmlMessage(code))
        }
        if !ok || parser.parserError != nil {
            let code = parser.parserError.map { ($0 as NSError).code } ?? -1
            throw HistoryError.malformedGPX(path: path, line: parser.lineNumber, column: parser.columnNumber,
                                            message: xmlMessage(code))
        }
        guard delegate.rootName == "gpx" else {
            throw HistoryError.malformedGPX(path: path, line: 1, column: 1,
                                            message: "root element is <\(delegate.rootName ?? "")>, not <gpx>")
        }
        let bytes = [UInt8](data)
        let hasTimes = delegate.points.contains { $0.time != nil }
        var items: [Item] = []
        items.reserveCapacity(delegate.points.count)
        for (n, point) in delegate.points.enumerated() {
            func reject(_ reason: RejectReason, _ detail: String) {
                items.append(.rejected(RejectedLine(path: path, line: point.line, reason: reason, detail: detail,
                                                    text: lineText(bytes, point.line))))
            }
            let time: Int64
            if hasTimes {
                guard let text = point.time else {
                    reject(.badTimestamp, "point has no <time> in a file whose other points have one")
                    continue
                }
                guard let t = RFC3339.parseAssumingUTC(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    reject(.badTimestamp, "<time>\(text)</time> is not an RFC 3339 timestamp in years 0001-9999")
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
                guard let v = Double(raw.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    reject(.badType, "\(name)=\"\(raw)\" is not a number")
                    break
                }
                guard v >= -limit && v <= limit else {
                    reject(.outOfRange, "\(name)=\"\(raw)\" is outside [\(-Int(limit)), \(Int(limit))]")
                    break
                }
                coords.append(v)
            }
            if coords.count == 2 { items.append(.fix(Fix(time: time, lat: coords[0], lon: coords[1]))) }
        }
        return Result(items: items)
    }

    /// A readable text for a libxml2 error code as reported by XMLParser.
    static func xmlMessage(_ code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "unexpected end of the document, or content after the root element"
        case 9: return "invalid character"
        case 23: return "unterminated entity reference"
        case 26: return "undeclared entity"
        case 38, 39, 40, 41: return "malformed attribute"
        case 64: return "malformed XML declaration"
        case 73: return "'>' expected"
        case 76: return "closing tag does not match the open element"
        case 77: return "element not closed at the end of the document"
        default: return "not well-formed XML (parser error \(code))"
        }
    }

    /// The bytes of 1-based line `line` of `bytes`, without terminator.
    static func lineText(_ bytes: [UInt8], _ line: Int) -> [UInt8] {
        var current = 1
        var s = 0
        var i = 0
        while i < bytes.count && current < line {
            if bytes[i] == 0x0A { current += 1; s = i + 1 }
            i += 1
        }
        var e = s
        while e < bytes.count && bytes[e] != 0x0A { e += 1 }
        if e > s && bytes[e - 1] == 0x0D { e -= 1 }
        return Array(bytes[s..<e])
    }
}
