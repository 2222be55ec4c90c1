/// Appends JSON text (RFC 8259) to a byte buffer: strings with the minimal escapes, and numbers.
public enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal, quotes included. U+2028 and U+2029 are escaped too:
    /// valid raw in JSON, but many line splitters (JavaScript, Python's `splitlines`) break on them.
    /// - Complexity: O(n) in the UTF-8 length of `s`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var utf8 = s.utf8.makeIterator()
        var pending: [UInt8] = []
        while let b = pending.isEmpty ? utf8.next() : pending.removeFirst() {
            if b == 0xE2 {
                // U+2028 is E2 80 A8, U+2029 is E2 80 A9.
                let b1 = utf8.next(), b2 = b1 == 0x80 ? utf8.next() : nil
                if b1 == 0x80, let b2, b2 == 0xA8 || b2 == 0xA9 {
                    out.append(contentsOf: [0x5C, 0x75, 0x32, 0x30, 0x32, b2 == 0xA8 ? 0x38 : 0x39])
                    continue
                }
                out.append(b)
                pending = [b1, b2].compactMap { $0 }
                continue
            }
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
