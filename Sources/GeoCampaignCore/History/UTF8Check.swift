/// UTF-8 validation of raw bytes (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
enum UTF8Check {
    /// Offset of the first byte that starts an invalid sequence, or nil when all `n` bytes are valid.
    /// - Complexity: O(n), eight ASCII bytes per step.
    @inline(__always)
    static func firstInvalid(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        let raw = UnsafeRawPointer(p)
        while true {
            while i + 8 <= n {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            if i >= n { return nil }
            let b = p[i]
            if b < 0x80 { i += 1; continue }
            let need: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: need = 2
            case 0xED: need = 2; hi = 0x9F
            case 0xF0: need = 3; lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; hi = 0x8F
            default: return i
            }
            if i + need >= n { return i }
            let c1 = p[i + 1]
            if c1 < lo || c1 > hi { return i }
            var k = 2
            while k <= need {
                let c = p[i + k]
                if c < 0x80 || c > 0xBF { return i }
                k += 1
            }
            i += need + 1
        }
    }
}
