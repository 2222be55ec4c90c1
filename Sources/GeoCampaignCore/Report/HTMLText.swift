/// Escaping of text put into HTML and SVG (text and attribute values alike).
///
///     HTMLText.escape("Fish & <Chips> \"Co\"")   // "Fish &amp; &lt;Chips&gt; &quot;Co&quot;"
public enum HTMLText {
    /// `s` with `&`, `<`, `>`, `"` and `'` replaced by entities.
    /// - Complexity: O(n).
    public static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
