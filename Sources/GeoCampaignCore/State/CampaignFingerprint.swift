/// A campaign's fingerprint (state.md 1.3): a hash of everything that can change its events or
/// decisions (its id, regions with tags, geometry and tracking overrides, tracking, rules with
/// their conditions and offers, offer ids, priorities and caps, holdout, active window) and of
/// the settings (limits, tracking); not names, descriptions, messages or file names.
public enum CampaignFingerprint {
    /// 16 hex digits.
    /// - Complexity: O(size of the campaign).
    public static func of(_ c: Campaign, settings: Settings) -> String {
        var text = "campaign \(c.id)\n"
        text += "active \(String(describing: c.active))\nholdout \(c.holdoutPercent)\ntracking \(String(describing: c.tracking))\n"
        for r in c.regions {
            text += "region \(r.id) tags \(r.tags) h \(String(describing: r.hysteresisM)) confirm \(String(describing: r.confirmMs)) shape \(String(describing: r.shape))\n"
        }
        for r in c.rules { text += "rule \(r.id) offer \(r.offer) when \(conditionText(r.condition))\n" }
        for o in c.offers { text += "offer \(o.id) priority \(o.priority) cap \(String(describing: o.cap))\n" }
        text += "settings " + settingsText(settings)
        return hex(fnv1a(Array(text.utf8)))
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

    static func settingsText(_ s: Settings) -> String {
        "limit \(String(describing: s.perUserLimit)) tracking \(String(describing: s.tracking))\n"
    }

    /// FNV-1a 64-bit.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
