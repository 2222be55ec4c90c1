/// Appends JSON text (RFC 8259) to a byte buffer: strings with the minimal escapes, and numbers.
public enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal, quotes included. U+2028 and U+2029 are escaped too:
    /// valid raw in JSON, but many line splitters (JavaScript, Python's `splitlines`) break on them.
    /// Runs of bytes that need no escape are copied at once.
    /// - Complexity: O(n) in the UTF-8 length of `s`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { appendEscaped($0, to: &out) }
        out.append(0x22)
    }

    /// Appends the escaped form of valid UTF-8 `text` (without quotes).
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0, i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 {
                i += 1
                continue
            }
            if i > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<i])) }
            i += 1
            switch b {
            case 0xE2:
                // U+2028 is E2 80 A8, U+2029 is E2 80 A9; other E2 sequences are copied as they are.
                if i + 1 < n && text[i] == 0x80 && (text[i + 1] == 0xA8 || text[i + 1] == 0xA9) {
                    out.append(contentsOf: [0x5C, 0x75, 0x32, 0x30, 0x32, text[i + 1] == 0xA8 ? 0x38 : 0x39])
                    i += 2
                } else {
                    out.append(b)
                }
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x08: out.append(0x5C); out.append(0x62)
            case 0x0C: out.append(0x5C); out.append(0x66)
            default:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            }
            start = i
        }
        if n > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<n])) }
    }

    /// Appends raw bytes as a JSON string literal, replacing invalid UTF-8 with U+FFFD.
    public static func appendString(bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        appendString(String(decoding: bytes, as: UTF8.self), to: &out)
    }

    /// Appends the decimal text of an integer.
    public static func appendInt(_ v: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: String(v).utf8)
    }
}
