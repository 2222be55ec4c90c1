/// Suggestions for misspelled keys and ids.
enum EditDistance {
    /// Levenshtein distance between two strings (by Unicode characters).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[y.count]
    }

    private static let synonyms: [String: String] = [
        "latitude": "lat", "longitude": "lon", "lng": "lon", "long": "lon",
        "centre": "center", "radius_m": "radius", "dwell": "min_dwell", "min_duration": "min_dwell",
        "within_window": "within", "count": "at_least", "minimum": "at_least", "timezone_name": "timezone",
        "tz": "timezone", "time_zone": "timezone", "start": "from", "end": "until", "to": "until",
    ]

    /// The nearest candidate to `word`, if one is close enough to be a likely typo.
    /// - Complexity: O(candidates x longest candidate^2) whatever the length of `word`: a word
    ///   much longer than every candidate is only checked for starting with one.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        if let s = synonyms[lower], candidates.contains(s) { return s }
        let wordCount = lower.count
        let longest = candidates.map(\.count).max() ?? 0
        if wordCount > 2 * longest + 3 {
            // No candidate is within 3 edits; the longest one it starts with is the likely one.
            return candidates.filter { $0.count >= 3 && lower.hasPrefix($0.lowercased()) }.max { $0.count < $1.count }
        }
        if let exact = candidates.first(where: { $0.lowercased() == lower }) { return exact }
        var best: (String, Int)?
        for c in candidates {
            let d = distance(lower, c.lowercased())
            if let b = best, d >= b.1 { continue }
            best = (c, d)
        }
        guard let (c, d) = best else { return nil }
        let limit = max(1, min(3, (max(wordCount, c.count) + 1) / 3))
        if d <= limit && d < min(wordCount, c.count) { return c }
        if c.count >= 3, lower.hasPrefix(c.lowercased()) || c.lowercased().hasPrefix(lower), wordCount >= 3 { return c }
        return nil
    }
}
