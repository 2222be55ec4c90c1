/// A campaign's fingerprint (state.md 1.3): a hash of everything that can change its events or
/// decisions (its id, regions with tags, geometry and tracking overrides, tracking, rules with
/// their conditions and offers, offer ids, priorities and caps, holdout, active window) and of
/// the settings (limits, tracking); not names, descriptions, messages or file names.
public enum CampaignFingerprint {
    /// 16 hex digits.
    /// - Complexity: O(size of the campaign). The text hashed is written straight into the hash;
    ///   a region's line costs its id and, for the tags and overrides that regions share, one
    ///   text made once per distinct value (10,000 regions of a city share a few).
    public static func of(_ c: Campaign, settings: Settings) -> String {
        var text = Bytes()
        text.add("campaign \(c.id)\n")
        text.add("active \(String(describing: c.active))\nholdout \(c.holdoutPercent)\ntracking \(String(describing: c.tracking))\n")
        // Geometry goes in as the coordinates' bit patterns (describing 10k polygons as text is slow).
        var geometry = FNV()
        var regionText: [RegionKey: [UInt8]] = [:]
        for r in c.regions {
            text.add("region ")
            text.add(r.id)
            let key = RegionKey(tags: r.tags, hysteresisM: r.hysteresisM, confirmMs: r.confirmMs)
            if let known = regionText[key] {
                text.add(known)
            } else {
                let line = Array(" tags \(r.tags) h \(String(describing: r.hysteresisM)) confirm \(String(describing: r.confirmMs))\n".utf8)
                regionText[key] = line
                text.add(line)
            }
            switch r.shape {
            case let .circle(center, radius):
                geometry.add(0); geometry.add(center.lat.bitPattern); geometry.add(center.lon.bitPattern); geometry.add(radius.bitPattern)
            case let .polygon(parts):
                geometry.add(1); geometry.add(UInt64(parts.count))
                for part in parts {
                    for ring in [part.outer] + part.holes {
                        geometry.add(UInt64(ring.count))
                        for p in ring { geometry.add(p.lat.bitPattern); geometry.add(p.lon.bitPattern) }
                    }
                }
            }
        }
        text.add("geometry \(geometry.value)\n")
        for r in c.rules { text.add("rule \(r.id) offer \(r.offer) when \(conditionText(r.condition))\n") }
        for o in c.offers { text.add("offer \(o.id) priority \(o.priority) cap \(String(describing: o.cap))\n") }
        text.add("settings " + settingsText(settings))
        return hex(text.value)
    }

    /// What a state keeps a campaign's fingerprint under (`StateStore.sourceFingerprints`): the
    /// hash of the bytes it was loaded from (`Campaign.sourceHash`) and `settingsKey`, after the
    /// hash's version (`BatchHash.versionPrefix`: a key an older build made with the version 1
    /// hash is never equal to one of this build, so its row is not used and is replaced); nil
    /// for a campaign not loaded from files.
    /// - Complexity: O(1): the bytes were hashed as the loader parsed them.
    public static func sourceKey(_ c: Campaign, settingsKey: String) -> String? {
        c.sourceHash.isEmpty ? nil : BatchHash.versionPrefix + c.sourceHash + settingsKey
    }

    /// A hash of the settings' fingerprinted text, made once per campaign set (describing the
    /// settings is not cheap).
    public static func settingsKey(_ settings: Settings) -> String {
        var s = Bytes()
        s.add(settingsText(settings))
        return hex(s.value)
    }

    /// What a region's line says besides its id.
    private struct RegionKey: Hashable {
        var tags: [String]
        var hysteresisM: Double?
        var confirmMs: Int64?
    }

    /// FNV-1a 64-bit over bytes, fed piece by piece.
    struct Bytes {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ bytes: [UInt8]) {
            for b in bytes { value = (value ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        mutating func add(_ s: String) {
            for b in s.utf8 { value = (value ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
    }

    /// A condition as text, the same in every process (`during`'s days are a set: sorted here).
    static func conditionText(_ c: Condition) -> String {
        switch c {
        case .during(let d):
            return "during(days: \(d.days.sorted()), start: \(d.startMinute), end: \(d.endMinute), zone: \(d.timezone))"
        case .all(let parts): return "all(" + parts.map(conditionText).joined(separator: ", ") + ")"
        case .any(let parts): return "any(" + parts.map(conditionText).joined(separator: ", ") + ")"
        case .not(let inner): return "not(" + conditionText(inner) + ")"
        case .inside, .visited, .dwelled, .sequence: return String(describing: c)
        }
    }

    /// The settings' part of every fingerprint and source key. Its text is stored in states
    /// (inside the fingerprints), so it is fixed: what `String(describing:)` printed for the
    /// settings (`limit Optional(GeoCampaignCore.Cap(count: 3, perMs: Optional(86400000)))
    /// tracking Tracking(hysteresisM: Optional(20.0), confirmMs: nil, ...)`), written out field
    /// by field. Describing the values through reflection cost 5.4M instructions a run (the
    /// runtime's conformance lookups), on the path of a small stateful batch.
    static func settingsText(_ s: Settings) -> String {
        let limit = s.perUserLimit.map { "Optional(GeoCampaignCore.Cap(count: \($0.count), perMs: \(described($0.perMs))))" } ?? "nil"
        let t = s.tracking
        return "limit \(limit) tracking Tracking(hysteresisM: \(described(t.hysteresisM)), confirmMs: \(described(t.confirmMs)), "
            + "maxAccuracyM: \(described(t.maxAccuracyM)), maxGapMs: \(described(t.maxGapMs)))\n"
    }

    /// An optional field as reflection prints it inside a value (`debugDescription`).
    private static func described(_ v: Int64?) -> String { v.map { "Optional(\($0))" } ?? "nil" }
    private static func described(_ v: Double?) -> String { v.map { "Optional(\($0.debugDescription))" } ?? "nil" }

    /// FNV-1a 64-bit over 8-byte words.
    struct FNV {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ w: UInt64) {
            var x = w
            for _ in 0..<8 {
                value = (value ^ (x & 0xFF)) &* 0x100_0000_01b3
                x >>= 8
            }
        }
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
