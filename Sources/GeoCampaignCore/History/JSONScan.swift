/// RFC 8259 token scanning on raw bytes, shared by the line parser. Every function returns the
/// offset just past what it scanned, or -1 when the bytes are not valid JSON there.
enum JSONScan {
    @inline(__always)
    static func isWS(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    @inline(__always)
    static func skipWS(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        while i < end && isWS(p[i]) { i += 1 }
    }

    @inline(__always)
    static func isHex(_ c: UInt8) -> Bool { c &- 0x30 < 10 || (c | 0x20) &- 0x61 < 6 }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt32 {
        c &- 0x30 < 10 ? UInt32(c &- 0x30) : UInt32((c | 0x20) &- 0x61 &+ 10)
    }

    /// Scans a string body starting just after its opening quote; returns the offset past the
    /// closing quote. Sets `hasEscape` when a backslash escape occurs. Raw control characters are
    /// invalid; the bytes are assumed to be valid UTF-8 already.
    @inline(__always)
    static func string(_ p: UnsafePointer<UInt8>, _ i0: Int, _ end: Int, hasEscape: inout Bool) -> Int {
        var i = i0
        let raw = UnsafeRawPointer(p)
        while true {
            // Skip eight bytes at a time while none is a quote, a backslash or a control character.
            while i + 8 <= end {
                let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let q = v ^ 0x2222_2222_2222_2222
                let b = v ^ 0x5C5C_5C5C_5C5C_5C5C
                let hits = ((q &- 0x0101_0101_0101_0101) & ~q | (b &- 0x0101_0101_0101_0101) & ~b
                    | (v &- 0x2020_2020_2020_2020) & ~v) & 0x8080_8080_8080_8080
                if hits == 0 {
                    i += 8
                } else {
                    i += hits.trailingZeroBitCount >> 3
                    break
                }
            }
            if i >= end { return -1 }
            let c = p[i]
            if c == 0x22 { return i + 1 }
            if c == 0x5C {
                hasEscape = true
                i += 1
                if i >= end { return -1 }
                switch p[i] {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
                    i += 1
                case 0x75:
                    if i + 4 >= end { return -1 }
                    if !(isHex(p[i + 1]) && isHex(p[i + 2]) && isHex(p[i + 3]) && isHex(p[i + 4])) { return -1 }
                    i += 5
                default:
                    return -1
                }
                continue
            }
            if c < 0x20 { return -1 }
            i += 1
        }
    }

    /// Scans `true`, `false` or `null` at `i` (the first byte already identifies which).
    @inline(__always)
    static func literal(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        switch p[i] {
        case 0x74:
            return i + 4 <= end && p[i + 1] == 0x72 && p[i + 2] == 0x75 && p[i + 3] == 0x65 ? i + 4 : -1
        case 0x66:
            return i + 5 <= end && p[i + 1] == 0x61 && p[i + 2] == 0x6C && p[i + 3] == 0x73 && p[i + 4] == 0x65
                ? i + 5 : -1
        case 0x6E:
            return i + 4 <= end && p[i + 1] == 0x75 && p[i + 2] == 0x6C && p[i + 3] == 0x6C ? i + 4 : -1
        default:
            return -1
        }
    }

    /// Scans an object member's name, the colon and the whitespace after it, from `i` (at the
    /// opening quote); returns the index of the member's value, or -1 when malformed.
    @inline(__always)
    static func memberName(_ p: UnsafePointer<UInt8>, _ i0: Int, _ end: Int, hasEscape: inout Bool) -> Int {
        if i0 >= end || p[i0] != 0x22 { return -1 }
        var i = string(p, i0 + 1, end, hasEscape: &hasEscape)
        if i < 0 { return -1 }
        skipWS(p, &i, end)
        if i >= end || p[i] != 0x3A { return -1 }
        i += 1
        skipWS(p, &i, end)
        return i
    }

    /// Scans any JSON value at `i` (whitespace before it already skipped), nested containers
    /// included, without recursion: `stack` holds one entry per open container (true = object),
    /// so depth is bounded only by the line length.
    static func value(_ p: UnsafePointer<UInt8>, _ i0: Int, _ end: Int, stack: inout [Bool]) -> Int {
        var i = i0
        stack.removeAll(keepingCapacity: true)
        var esc = false
        var isInt = false
        nextValue: while true {
            if i >= end { return -1 }
            switch p[i] {
            case 0x7B:
                i += 1
                skipWS(p, &i, end)
                if i < end && p[i] == 0x7D {
                    i += 1
                } else {
                    stack.append(true)
                    i = memberName(p, i, end, hasEscape: &esc)
                    if i < 0 { return -1 }
                    continue nextValue
                }
            case 0x5B:
                i += 1
                skipWS(p, &i, end)
                if i < end && p[i] == 0x5D {
                    i += 1
                } else {
                    stack.append(false)
                    continue nextValue
                }
            case 0x22:
                i = string(p, i + 1, end, hasEscape: &esc)
            case 0x2D, 0x30...0x39:
                i = JSONNumber.scan(p, i, end, isInteger: &isInt)
            case 0x74, 0x66, 0x6E:
                i = literal(p, i, end)
            default:
                return -1
            }
            if i < 0 { return -1 }
            // After a complete value: close containers or move to the next element.
            while let inObject = stack.last {
                skipWS(p, &i, end)
                if i >= end { return -1 }
                let c = p[i]
                if c == 0x2C {
                    i += 1
                    skipWS(p, &i, end)
                    if inObject {
                        i = memberName(p, i, end, hasEscape: &esc)
                        if i < 0 { return -1 }
                    }
                    continue nextValue
                }
                if (inObject && c == 0x7D) || (!inObject && c == 0x5D) {
                    stack.removeLast()
                    i += 1
                    continue
                }
                return -1
            }
            return i
        }
    }

    /// Decodes the string body `p[s..<e]` (between the quotes, already validated) into `out` as
    /// UTF-8, which needs at most `e - s` bytes. Returns the decoded length; `loneSurrogate` is set
    /// when a `\uD800`-`\uDFFF` escape is not part of a pair (it is written as U+FFFD).
    static func decode(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, into out: UnsafeMutablePointer<UInt8>,
                       loneSurrogate: inout Bool) -> Int {
        var i = s
        var o = 0
        @inline(__always) func put(_ scalar: UInt32) {
            if scalar < 0x80 {
                out[o] = UInt8(scalar); o += 1
            } else if scalar < 0x800 {
                out[o] = UInt8(0xC0 | (scalar >> 6)); out[o + 1] = UInt8(0x80 | (scalar & 0x3F)); o += 2
            } else if scalar < 0x10000 {
                out[o] = UInt8(0xE0 | (scalar >> 12)); out[o + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                out[o + 2] = UInt8(0x80 | (scalar & 0x3F)); o += 3
            } else {
                out[o] = UInt8(0xF0 | (scalar >> 18)); out[o + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
                out[o + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F)); out[o + 3] = UInt8(0x80 | (scalar & 0x3F)); o += 4
            }
        }
        @inline(__always) func hex4(_ j: Int) -> UInt32 {
            hexValue(p[j]) << 12 | hexValue(p[j + 1]) << 8 | hexValue(p[j + 2]) << 4 | hexValue(p[j + 3])
        }
        while i < e {
            let c = p[i]
            if c != 0x5C {
                out[o] = c; o += 1; i += 1
                continue
            }
            let k = p[i + 1]
            switch k {
            case 0x62: out[o] = 0x08; o += 1; i += 2
            case 0x66: out[o] = 0x0C; o += 1; i += 2
            case 0x6E: out[o] = 0x0A; o += 1; i += 2
            case 0x72: out[o] = 0x0D; o += 1; i += 2
            case 0x74: out[o] = 0x09; o += 1; i += 2
            case 0x75:
                let u = hex4(i + 2)
                i += 6
                if u >= 0xD800 && u <= 0xDBFF {
                    if i + 6 <= e && p[i] == 0x5C && p[i + 1] == 0x75 {
                        let v = hex4(i + 2)
                        if v >= 0xDC00 && v <= 0xDFFF {
                            put(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00))
                            i += 6
                            continue
                        }
                    }
                    loneSurrogate = true
                    put(0xFFFD)
                } else if u >= 0xDC00 && u <= 0xDFFF {
                    loneSurrogate = true
                    put(0xFFFD)
                } else {
                    put(u)
                }
            default:
                out[o] = k; o += 1; i += 2
            }
        }
        return o
    }
}
