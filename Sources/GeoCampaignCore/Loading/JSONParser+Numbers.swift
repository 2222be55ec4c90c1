/// The numbers' fast paths of the JSON parser: the same doubles as `Double(text)` for the
/// numbers they read (Clinger's fast path), and nil for every other text, which the parser then
/// reads by its general path.
extension JSONParser {
    /// The number whose text starts at byte `j` of `p` (`n` bytes), moving `j` past it, when
    /// it is valid JSON, has no exponent, at most 19 digits (so the integer of its digits
    /// does not overflow), that integer at most 2^53 (so exactly a double) and at most 22
    /// digits after the point: then its value is that integer divided by an exact power of
    /// ten, one correctly rounded IEEE operation, so the same double as `Double(text)`
    /// (Clinger's fast path). Nil (and `j` unchanged) for every other text, valid or not.
    /// The digits before the point (few, in coordinates) are read one by one, those after
    /// it up to 8 at a time (`digits`).
    @inline(__always)
    static func fastNumber(_ p: UnsafePointer<UInt8>, _ n: Int, _ j: inout Int) -> Double? {
        var k = j
        let negative = k < n && p[k] == 0x2D
        if negative { k &+= 1 }
        guard k < n else { return nil }
        var d = p[k] &- 0x30
        guard d <= 9 else { return nil }
        var mantissa = UInt64(d)
        let intStart = k
        k &+= 1
        if d != 0 {
            while k < n {
                d = p[k] &- 0x30
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                k &+= 1
            }
        }
        var digitCount = k &- intStart
        var fraction = 0
        if k < n, p[k] == 0x2E {
            k &+= 1
            let fractionStart = k
            digits(p, n, &k, &mantissa)
            fraction = k &- fractionStart
            guard fraction > 0 else { return nil }
            digitCount &+= fraction
        }
        guard k >= n || p[k] | 0x20 != 0x65, digitCount <= 19, fraction <= 22, mantissa <= 1 << 53 else { return nil }
        j = k
        let v = Double(mantissa) / JSONParser.pow10[fraction]
        return negative ? -v : v
    }

    /// `fastNumber` for the numbers most GeoJSON coordinates are: an optional `-`, 1 to 7
    /// digits before the point (or one `0`) and, if there is a point, 1 to 7 after it, at
    /// byte `j` of `p` with at least 24 bytes readable from `j`. The digits before and after
    /// the point are each read by one 8-byte load (counted by the first byte that is not a
    /// digit, converted by three multiplications, as `digits` does). Where it gives a value,
    /// `fastNumber` gives the same value and end: the same digits make the same mantissa, and
    /// at most 14 digits are far within its limits (19 digits, 2^53, 22 decimals), so both
    /// divide the same integer by the same power of ten. Nil (and `j` unchanged) for every
    /// other text: `fastNumber` then reads it.
    @inline(__always)
    static func shortNumber(_ p: UnsafePointer<UInt8>, _ j: inout Int) -> Double? {
        var k = j
        let negative = p[k] == 0x2D
        if negative { k &+= 1 }
        let t = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self).littleEndian ^ 0x3030_3030_3030_3030
        let stops = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
        // 8 or more digits before the point: `fastNumber` reads them.
        guard stops != 0 else { return nil }
        // A leading 0 is a number of its own, as `fastNumber` reads it ("01" reads "0").
        let m = t & 0xFF == 0 ? 1 : stops.trailingZeroBitCount >> 3
        guard m > 0 else { return nil }
        var mantissa = digitValue(t, m)
        k &+= m
        var fraction = 0
        if p[k] == 0x2E {
            let u = UnsafeRawPointer(p + (k &+ 1)).loadUnaligned(as: UInt64.self).littleEndian ^ 0x3030_3030_3030_3030
            let uStops = ((u &+ 0x7676_7676_7676_7676) | u) & 0x8080_8080_8080_8080
            guard uStops != 0 else { return nil }
            fraction = uStops.trailingZeroBitCount >> 3
            guard fraction > 0 else { return nil }
            mantissa = mantissa &* JSONParser.pow10Int[fraction] &+ digitValue(u, fraction)
            k &+= 1 &+ fraction
        }
        guard p[k] | 0x20 != 0x65 else { return nil }
        j = k
        let v = Double(mantissa) / JSONParser.pow10[fraction]
        return negative ? -v : v
    }

    /// The value of the first `k` (1 to 7) digits of `t` (eight bytes as digit values, the
    /// first in the low byte), as `digits` converts them.
    @inline(__always)
    static func digitValue(_ t: UInt64, _ k: Int) -> UInt64 {
        var x = t << UInt64(64 &- 8 &* k)
        x = ((x & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        x = ((x & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        x = ((x & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return x
    }

    /// Reads the decimal digits from `j` on (of the `n` bytes at `p`) into `mantissa`
    /// (`mantissa * 10 + digit` for each, wrapping past 64 bits) and moves `j` past them: up
    /// to 8 digits at a time from one 8-byte load while 8 bytes remain (the digits counted
    /// by the first byte that is not one, converted by three multiplications), then one by
    /// one. The same `mantissa` as one by one: `m * 10^k + (the k digits' value)` modulo
    /// 2^64 is what k single steps give.
    @inline(__always)
    static func digits(_ p: UnsafePointer<UInt8>, _ n: Int, _ j: inout Int, _ mantissa: inout UInt64) {
        while j &+ 8 <= n {
            // Bytes as digit values (0-9 for '0'-'9'); a byte is not a digit when its value
            // is above 9, which sets its top bit in `t + 0x76` or in `t` (a carry out of such
            // a byte only touches the bytes after it).
            let t = UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self).littleEndian ^ 0x3030_3030_3030_3030
            let stops = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
            let k = stops == 0 ? 8 : stops.trailingZeroBitCount >> 3
            if k == 0 { return }
            // The k digits moved to the top bytes (leading zero digits below them), then
            // pairs, fours and eights of digits combined.
            var x = k == 8 ? t : t << UInt64(64 &- 8 &* k)
            x = ((x & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
            x = ((x & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
            x = ((x & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
            mantissa = mantissa &* JSONParser.pow10Int[k] &+ x
            j &+= k
            if k < 8 { return }
        }
        while j < n {
            let d = p[j] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            j &+= 1
        }
    }
}
