import Foundation
@testable import GeoCampaignCore

/// Test-only reader of the conformance example's history.jsonl: skips the lines its rejects.jsonl
/// names, parses the rest with JSONSerialization, and groups accepted fixes by user (stable by time).
enum ConformanceHistory {
    /// The conformance example's history, rejects and events: the copy under
    /// Tests/Data/conformance-1 (the contract's worked example, byte for byte).
    static let folder = TestData.url("conformance-1")


    static func lines(_ name: String) throws -> [String] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        // Lines with invalid UTF-8 become U+FFFD text; they are rejected lines and get skipped.
        return data.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Fixes by user id, each user's fixes sorted by time (stable).
    static func fixesByUser() throws -> [String: [Fix]] {
        var rejected = Set<Int>()
        for line in try lines("rejects.jsonl") where !line.isEmpty {
            if let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let n = obj["line"] as? Int { rejected.insert(n) }
        }
        var byUser: [String: [Fix]] = [:]
        for (i, raw) in try lines("history.jsonl").enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            if rejected.contains(i + 1) || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let obj = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
            let user: String
            if let s = obj["user"] as? String { user = s } else if let n = obj["user"] as? NSNumber { user = n.stringValue } else { continue }
            guard let lat = (obj["lat"] as? NSNumber)?.doubleValue, let lon = (obj["lon"] as? NSNumber)?.doubleValue,
                  let ts = timestamp(obj["ts"], line: line) else { continue }
            let acc = (obj["accuracy"] as? NSNumber)?.doubleValue ?? .nan
            byUser[user, default: []].append(Fix(time: ts, lat: lat, lon: lon, accuracy: acc))
        }
        for (u, fixes) in byUser {
            byUser[u] = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        return byUser
    }

    static func timestamp(_ value: Any?, line: String) -> Int64? {
        if let s = value as? String { return rfc3339(s) }
        guard value is NSNumber,
              let range = line.range(of: #""ts"\s*:\s*(-?[0-9]+(\.[0-9]+)?)"#, options: .regularExpression) else { return nil }
        let token = line[range].split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return decimalSecondsToMs(token)
    }

    /// "123.4567" seconds to milliseconds, rounded half away from zero from the written decimal.
    static func decimalSecondsToMs(_ s: String) -> Int64? {
        let negative = s.hasPrefix("-")
        let body = negative ? String(s.dropFirst()) : s
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]) else { return nil }
        var frac = parts.count > 1 ? String(parts[1]) : ""
        while frac.count < 4 { frac += "0" }
        let digits = Array(frac.utf8).map { Int64($0 - 48) }
        var ms = whole * 1000 + digits[0] * 100 + digits[1] * 10 + digits[2]
        if digits[3] >= 5 { ms += 1 }
        return negative ? -ms : ms
    }

    static func rfc3339(_ s: String) -> Int64? {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#
        guard let re = try? NSRegularExpression(pattern: pattern),
              let m = re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { return nil }
        func g(_ i: Int) -> String? {
            let r = m.range(at: i)
            guard r.location != NSNotFound, let rr = Range(r, in: s) else { return nil }
            return String(s[rr])
        }
        guard let y = g(1).flatMap({ Int64($0) }), let mo = g(2).flatMap({ Int64($0) }), let d = g(3).flatMap({ Int64($0) }),
              let h = g(4).flatMap({ Int64($0) }), let mi = g(5).flatMap({ Int64($0) }), let se = g(6).flatMap({ Int64($0) }),
              let off = g(8) else { return nil }
        let days = Timestamp.days(year: y, month: mo, day: d)
        var secs = days * 86_400 + h * 3600 + mi * 60 + se
        if off != "Z" && off != "z" {
            let sign: Int64 = off.hasPrefix("-") ? -1 : 1
            let oh = Int64(off.dropFirst().prefix(2)) ?? 0, om = Int64(off.suffix(2)) ?? 0
            secs -= sign * (oh * 3600 + om * 60)
        }
        let fracMs = g(7).flatMap { decimalSecondsToMs("0" + $0) } ?? 0
        return secs * 1000 + fracMs
    }

    /// Test-only GeoJSON import (regions/NAME.geojson): Points become circles of `radiusM`,
    /// Polygons one part, MultiPolygons several; ids from `idProperty` of properties, else the
    /// feature's `id`, else properties.id.
    static func importRegions(_ name: String, idProperty: String? = nil, radiusM: Double = 0) throws -> [Region] {
        try importRegions(url: folder.appendingPathComponent("regions").appendingPathComponent(name), idProperty: idProperty, radiusM: radiusM)
    }

    static func importRegions(url: URL, idProperty: String? = nil, radiusM: Double = 0) throws -> [Region] {
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let features = root["features"] as? [[String: Any]] else { return [] }
        func coordinate(_ v: Any) -> Coordinate? {
            guard let a = v as? [NSNumber], a.count >= 2 else { return nil }
            return Coordinate(lat: a[1].doubleValue, lon: a[0].doubleValue)
        }
        func ring(_ v: Any) -> [Coordinate] {
            var r = (v as? [Any] ?? []).compactMap(coordinate)
            if r.count > 1, r.first == r.last { r.removeLast() }
            return r
        }
        func part(_ v: Any) -> Region.PolygonPart? {
            guard let rings = v as? [Any], let outer = rings.first else { return nil }
            return Region.PolygonPart(outer: ring(outer), holes: rings.dropFirst().map(ring))
        }
        return features.compactMap { f -> Region? in
            let props = f["properties"] as? [String: Any] ?? [:]
            let idValue = idProperty.flatMap { props[$0] } ?? f["id"] ?? props["id"]
            let id = (idValue as? String) ?? (idValue as? NSNumber)?.stringValue ?? ""
            guard let g = f["geometry"] as? [String: Any], let type = g["type"] as? String, let coords = g["coordinates"] else { return nil }
            switch type {
            case "Point": return coordinate(coords).map { Region(id: id, shape: .circle(center: $0, radiusM: radiusM)) }
            case "Polygon": return part(coords).map { Region(id: id, shape: .polygon([$0])) }
            case "MultiPolygon": return Region(id: id, shape: .polygon((coords as? [Any] ?? []).compactMap(part)))
            default: return nil
            }
        }
    }

    /// Expected events of one campaign as comparable strings.
    static func expectedEvents(campaign: String, regions: Set<String>) throws -> [String] {
        var out: [String] = []
        for line in try lines("events.jsonl") where !line.isEmpty {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["campaign"] as? String == campaign, let region = o["region"] as? String, regions.contains(region),
                  let type = o["type"] as? String, let user = o["user"] as? String, let time = o["time"] as? String else { continue }
            if type == "exit" {
                out.append("\(user) exit \(region) \(time) enter=\(o["enter"] as? String ?? "?") reason=\(o["reason"] as? String ?? "?") dur=\(o["duration_s"] ?? "?")")
            } else {
                out.append("\(user) enter \(region) \(time)")
            }
        }
        return out.sorted()
    }

    /// Events our engine produces for `campaign`, in the same comparable form.
    static func actualEvents(campaign: Campaign, settings: Settings, fixesByUser: [String: [Fix]]) -> [String] {
        let engine = CrossingEngine(campaign: campaign, settings: settings)
        var out: [String] = []
        for (user, fixes) in fixesByUser {
            guard let tEnd = fixes.last?.time else { continue }
            for v in engine.visits(fixes: fixes, tEnd: tEnd) {
                let region = campaign.regions[Int(v.region)].id
                out.append("\(user) enter \(region) \(Timestamp.string(v.enter))")
                if let exit = v.exit {
                    let dur = Double(exit - v.enter) / 1000
                    let durText = dur == dur.rounded() ? String(Int64(dur)) : String(dur)
                    out.append("\(user) exit \(region) \(Timestamp.string(exit)) enter=\(Timestamp.string(v.enter)) reason=\(v.reason?.rawValue ?? "?") dur=\(durText)")
                }
            }
        }
        return out.sorted()
    }
}
