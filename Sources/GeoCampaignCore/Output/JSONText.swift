/// Appends JSON text (RFC 8259) to a byte buffer: strings with the minimal escapes, and numbers.
public enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal, quotes included.
    /// - Complexity: O(n) in the UTF-8 length of `s`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x08: out.append(0x5C); out.append(0x62)
            case 0x0C: out.append(0x5C); out.append(0x66)
            case 0..<0x20:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
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
