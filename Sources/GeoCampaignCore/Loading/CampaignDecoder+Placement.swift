import Foundation

extension CampaignDecoder {
    /// A region farther than this from the median of its campaign's regions is warned about.
    static let farFromMedianM = 1_000_000.0
    /// A region farther than this from the principal city of its campaign's time zone is warned
    /// about (a zone spans up to about 2,500 km around its city: Shanghai to Kashgar is more).
    static let farFromZoneM = 3_000_000.0

    /// A time zone written as a fixed offset (`UTC+1`, `GMT+1`, `UTC+01:00`, `+01:00`): its
    /// offset in seconds east of UTC; nil for anything else (`Etc/GMT-1` is an IANA name).
    static func fixedOffset(_ s: String) -> Int? {
        var rest = Substring(s)
        for prefix in ["UTC", "GMT", "UT"] where rest.uppercased().hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        rest = rest.drop { $0 == " " }
        guard let sign = rest.first, sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        rest = rest.dropFirst()
        let digits = rest.filter { $0 != ":" }
        guard rest.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == ":" }), rest.filter({ $0 == ":" }).count <= 1,
              (1...4).contains(digits.count) else { return nil }
        let hours: Int, minutes: Int
        if rest.contains(":") {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
            (hours, minutes) = (h, m)
        } else if digits.count <= 2, let h = Int(digits) {
            (hours, minutes) = (h, 0)
        } else if let h = Int(digits.prefix(digits.count - 2)), let m = Int(digits.suffix(2)) {
            (hours, minutes) = (h, m)
        } else {
            return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
    }

    /// The error for a time zone written as a fixed offset, given once the regions are known: it
    /// names the likely zone of the regions and, for a whole-hour offset, the `Etc/GMT` zone of a
    /// deliberate fixed offset (whose sign is inverted: `Etc/GMT-1` is UTC+1).
    func reportFixedOffset(_ pending: PendingZone, regions: [Region]) {
        let offset = pending.offsetSeconds
        if offset == 0 {
            error(pending.mark, "timezone '\(pending.text)' is written as an offset: write UTC")
            return
        }
        var fixes: [String] = []
        if let zone = Self.likelyZone(offset: offset, regions: regions) {
            fixes.append("the zone of this campaign's regions, \(zone), which follows their clock changes")
        } else {
            fixes.append("the IANA name of the zone where the campaign runs, e.g. Europe/Zurich, which follows its clock changes")
        }
        if offset % 3600 == 0, (-14...12).contains(offset / 3600) {
            let h = offset / 3600
            let etc = "Etc/GMT\(h > 0 ? "-" : "+")\(abs(h))"
            fixes.append("\(etc) for a fixed offset on purpose (Etc names invert the sign: \(etc) is UTC\(h > 0 ? "+" : "-")\(abs(h)))")
        }
        error(pending.mark, "timezone '\(pending.text)' is a fixed offset, an hour off every summer where clocks change, and not an IANA name: write \(fixes.joined(separator: "; or "))")
    }

    /// The zone whose city is nearest the median of `regions` among those at `offset` in winter
    /// or summer, unless that city is more than 1,500 km further than the nearest zone's city
    /// (the offset is then wrong for the regions, and their own zone is meant); nil without regions.
    static func likelyZone(offset: Int, regions: [Region]) -> String? {
        guard let middle = median(regions) else { return nil }
        let year = Date()
        let winter = Date(timeIntervalSince1970: (floor(year.timeIntervalSince1970 / 31_556_952) * 31_556_952) + 14 * 86_400)
        let summer = winter.addingTimeInterval(182 * 86_400)
        var best: (zone: String, d: Double)?
        var bestMatching: (zone: String, d: Double)?
        for (zone, at) in TimeZoneLocations.all {
            let d = Earth.distance(middle, at)
            if d < best?.d ?? .infinity { best = (zone, d) }
            guard let tz = TimeZone(identifier: zone) else { continue }
            if tz.secondsFromGMT(for: winter) == offset || tz.secondsFromGMT(for: summer) == offset, d < bestMatching?.d ?? .infinity {
                bestMatching = (zone, d)
            }
        }
        if let m = bestMatching, let b = best, m.d <= b.d + 1_500_000 { return m.zone }
        return best?.zone
    }

    /// A point of a region: a circle's center, the middle of a polygon's bounding box.
    static func point(_ r: Region) -> Coordinate? {
        switch r.shape {
        case .circle(let c, _): return c
        case .polygon(let parts):
            // One pass over the outlines, no copies: the same minima and maxima as `min()` and
            // `max()` (the first of equal values is kept).
            var first: Coordinate?
            var minLat = 0.0, maxLat = 0.0, minLon = 0.0, maxLon = 0.0
            for part in parts {
                for p in part.outer {
                    guard first != nil else {
                        first = p
                        (minLat, maxLat, minLon, maxLon) = (p.lat, p.lat, p.lon, p.lon)
                        continue
                    }
                    if p.lat < minLat { minLat = p.lat }
                    if maxLat < p.lat { maxLat = p.lat }
                    if p.lon < minLon { minLon = p.lon }
                    if maxLon < p.lon { maxLon = p.lon }
                }
            }
            guard first != nil else { return nil }
            return Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2)
        }
    }

    /// The median latitude and the median longitude of the regions' points. The points are
    /// computed on all cores for large sets, straight into one array of latitudes and one of
    /// longitudes (no array of points: 2.4 MB more for 100k regions).
    static func median(_ regions: [Region]) -> Coordinate? {
        let n = regions.count
        var has = [Bool](repeating: false, count: n)
        var lats = [Double](repeating: 0, count: n), lons = [Double](repeating: 0, count: n)
        regions.withUnsafeBufferPointer { src in
            has.withUnsafeMutableBufferPointer { h in
                lats.withUnsafeMutableBufferPointer { la in
                    lons.withUnsafeMutableBufferPointer { lo in
                        CompiledGeometry.inChunks(n) { range in
                            for r in range {
                                guard let p = point(src[r]) else { continue }
                                (h[r], la[r], lo[r]) = (true, p.lat, p.lon)
                            }
                        }
                    }
                }
            }
        }
        if has.contains(false) {
            var k = 0
            for r in 0..<n where has[r] {
                (lats[k], lons[k]) = (lats[r], lons[r])
                k += 1
            }
            lats.removeLast(n - k)
            lons.removeLast(n - k)
        }
        guard !lats.isEmpty else { return nil }
        return Coordinate(lat: middleValue(&lats), lon: middleValue(&lons))
    }

    /// The value at the middle of `v` sorted (the mean of the two middle ones for an even count),
    /// found by selection in O(n) on average (`v` is reordered). The sorted list itself when `v`
    /// holds a NaN or zeros of both signs (which of -0.0 and 0.0 is in the middle then depends on
    /// their order in `v`, which the selection does not keep), or when the selection takes too
    /// many rounds (without those, the middle of any order of `v` is the same, bit for bit).
    static func middleValue(_ v: inout [Double]) -> Double {
        func sortedMiddle() -> Double {
            let s = v.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        let n = v.count, k = n / 2
        var negativeZero = false, positiveZero = false, nan = false
        for x in v {
            if x == 0 {
                if x.sign == .minus { negativeZero = true } else { positiveZero = true }
            } else if x.isNaN {
                nan = true
            }
        }
        guard n > 2, !nan, !(negativeZero && positiveZero) else { return sortedMiddle() }
        let selected: Double? = v.withUnsafeMutableBufferPointer { b -> Double? in
            var lo = 0, hi = n - 1, rounds = 0
            while lo < hi {
                rounds += 1
                if rounds > 128 { return nil }
                // Pivot: the median of the first, middle and last values of the range.
                let a = b[lo], m = b[(lo + hi) / 2], z = b[hi]
                let pivot = max(min(a, m), min(max(a, m), z))
                var i = lo, j = hi
                while i <= j {
                    while b[i] < pivot { i += 1 }
                    while b[j] > pivot { j -= 1 }
                    if i <= j {
                        b.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j {
                    hi = j
                } else if k >= i {
                    lo = i
                } else {
                    break
                }
            }
            let upper = b[k]
            guard n % 2 == 0 else { return upper }
            // Every value before position k is at most b[k]: the largest is the lower middle.
            var lower = b[0]
            for x in 1..<k where b[x] > lower { lower = b[x] }
            return (lower + upper) / 2
        }
        return selected ?? sortedMiddle()
    }

    private static func km(_ m: Double) -> String {
        let k = Int((m / 1000).rounded())
        var s = String(k)
        var i = s.count - 3
        while i > 0 {
            s.insert(",", at: s.index(s.startIndex, offsetBy: i))
            i -= 3
        }
        return s
    }

    private static func place(_ c: Coordinate) -> String {
        "\"\(ValueParser.fmt((c.lat * 1e4).rounded() / 1e4)), \(ValueParser.fmt((c.lon * 1e4).rounded() / 1e4))\""
    }

    /// Per region: bit 0 set when its point is more than `farFromMedianM` from `middle`, bit 1
    /// when more than `farFromZoneM` from `zoneAt`; large sets in chunks on all cores.
    private static func farFlags(_ regions: [Region], middle: Coordinate?, zoneAt: Coordinate?) -> [UInt8] {
        // `Earth.distance(at, middle)` and `Earth.distance(at, zoneAt)`, with the cosines of the
        // latitudes computed once (the same values, so the same distances).
        func radians(_ c: Coordinate) -> (lat: Double, lon: Double, cosLat: Double) {
            let lat = Earth.radians(c.lat)
            return (lat, Earth.radians(c.lon), cos(lat))
        }
        let m = middle.map(radians), z = zoneAt.map(radians)
        return [UInt8](unsafeUninitializedCapacity: regions.count) { out, written in
            regions.withUnsafeBufferPointer { src in
                CompiledGeometry.inChunks(src.count) { range in
                    for r in range {
                        var f: UInt8 = 0
                        if let at = point(src[r]) {
                            let a = radians(at)
                            if let m, Earth.distance(lat1: a.lat, lon1: a.lon, cosLat1: a.cosLat, lat2: m.lat, lon2: m.lon, cosLat2: m.cosLat) > farFromMedianM { f |= 1 }
                            if let z, Earth.distance(lat1: a.lat, lon1: a.lon, cosLat1: a.cosLat, lat2: z.lat, lon2: z.lon, cosLat2: z.cosLat) > farFromZoneM { f |= 2 }
                        }
                        (out.baseAddress.unsafelyUnwrapped + r).initialize(to: f)
                    }
                }
            }
            written = regions.count
        }
    }

    /// Warnings for regions far from the others (swapped coordinates put a region in Zürich,
    /// 47.37, 8.54, into Ethiopia) and far from the campaign's time zone; imported regions are
    /// summarized per import entry.
    func warnFarRegions(_ scope: CampaignScope, zone: String?) {
        let regions = scope.regions, origins = scope.origins
        guard regions.count == origins.count else { return }
        let middle = regions.count >= 2 ? Self.median(regions) : nil
        let zoneAt = zone.flatMap(TimeZoneLocations.location(of:))
        // Which regions are far (their points and distances on all cores for large sets); the
        // messages are then made for those only, in region order.
        let far = Self.farFlags(regions, middle: middle, zoneAt: zoneAt)
        var perEntry: [Int: (mark: SourceMark, file: String, far: [String], farZone: [String])] = [:]
        var entryOrder: [Int] = []
        for k in regions.indices where far[k] != 0 {
            guard let at = Self.point(regions[k]) else { continue }
            let id = regions[k].id
            var farMedian: String?
            var farZone: String?
            if let middle, far[k] & 1 != 0 {
                let swapped = Coordinate(lat: at.lon, lon: at.lat)
                let hint = (-90...90).contains(swapped.lat) && Earth.distance(swapped, middle) <= Self.farFromMedianM
                    ? ": its latitude and longitude look swapped, the point \(Self.place(swapped)) is near the others"
                    : ": check its coordinates (latitude first in \"lat, lon\", longitude first in GeoJSON)"
                farMedian = "the region '\(id)' at \(Self.place(at)) is \(Self.km(Earth.distance(at, middle))) km from the middle of this campaign's regions, \(Self.place(middle))\(hint)"
            }
            if let zone, let zoneAt, far[k] & 2 != 0 {
                farZone = "the region '\(id)' at \(Self.place(at)) is \(Self.km(Earth.distance(at, zoneAt))) km from \(zone), the campaign's time zone: check the region's coordinates, or the timezone"
            }
            switch origins[k] {
            case .written(let m):
                if let farMedian { warning(m, farMedian) }
                if let farZone { warning(m, farZone) }
            case .imported(let e, let m, let f):
                guard farMedian != nil || farZone != nil else { continue }
                if perEntry[e] == nil {
                    perEntry[e] = (m, f, [], [])
                    entryOrder.append(e)
                }
                if let farMedian { perEntry[e]?.far.append(farMedian) }
                if let farZone { perEntry[e]?.farZone.append(farZone) }
            }
        }
        for e in entryOrder {
            guard let info = perEntry[e] else { continue }
            for list in [info.far, info.farZone] {
                guard let first = list.first else { continue }
                if list.count == 1 {
                    warning(info.mark, "imported from \(info.file), \(first)")
                } else {
                    warning(info.mark, "\(list.count) regions imported from \(info.file) are far away; the first: \(first)")
                }
            }
        }
    }
}

/// A time zone written as a fixed offset, reported once the campaign's regions are known.
struct PendingZone {
    var mark: SourceMark
    var text: String
    var offsetSeconds: Int
}
