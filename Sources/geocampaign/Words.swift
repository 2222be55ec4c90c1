import Foundation

/// Durations and counts in words.
enum Words {
    /// "45m 10s", "2h 5m", "3d 4h".
    static func duration(_ ms: Int64) -> String {
        var s = ms / 1000
        let d = s / 86400; s %= 86400
        let h = s / 3600; s %= 3600
        let m = s / 60; s %= 60
        let frac = ms % 1000
        if d > 0 { return h > 0 ? "\(d)d \(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h \(m)m" : "\(h)h" }
        if m > 0 { return s > 0 ? "\(m)m \(s)s" : "\(m)m" }
        return frac > 0 ? "\(s).\(String(format: "%03d", Int(frac)))s" : "\(s)s"
    }
}
