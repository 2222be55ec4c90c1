#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 8259 numbers on raw bytes: the grammar, correctly rounded doubles, and exact
/// decimal-to-millisecond conversion (semantics.md 0).
enum JSONNumber {
    /// Exact powers of ten representable as doubles.
    static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Scans `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` starting at `i`.
    /// Returns the end offset (exclusive) or -1; `isInteger` tells whether there was neither a
    /// fraction nor an exponent. What follows the number is the caller's business.
    @inline(__always)
    static func scan(_ p: UnsafePointer<UInt8>, _ i0: Int, _ end: Int, isInteger: inout Bool) -> Int {
        var i = i0
        if i < end && p[i] == 0x2D { i += 1 }
        guard i < end else { return -1 }
        let d0 = p[i]
        if d0 == 0x30 {
            i += 1
        } else if d0 >= 0x31 && d0 <= 0x39 {
            i += 1
            while i < end && p[i] &- 0x30 < 10 { i += 1 }
        } else {
            return -1
        }
        isInteger = true
        if i < end && p[i] == 0x2E {
            isInteger = false
            i += 1
            let s = i
            while i < end && p[i] &- 0x30 < 10 { i += 1 }
            if i == s { return -1 }
        }
        if i < end && (p[i] | 0x20) == 0x65 {
            isInteger = false
            i += 1
            if i < end && (p[i] == 0x2B || p[i] == 0x2D) { i += 1 }
            let s = i
            while i < end && p[i] &- 0x30 < 10 { i += 1 }
            if i == s { return -1 }
        }
        return i
    }

    /// What `scanMeasured` learns about a number while validating it.
    struct Measure {
        /// The digits as an integer (wrapping when there are more than 19).
        var mantissa: UInt64 = 0
        /// Significant digits (leading zeros excluded).
        var significant: Int32 = 0
        /// Digits after the decimal point.
        var fractionDigits: Int32 = 0
        /// Whether there was an exponent part.
        var hasExponent = false
        /// Whether the number is negative.
        var negative = false
    }

    /// `scan` that also accumulates the digits, so that `double(_:)` needs no second pass.
    @inline(__always)
    static func scanMeasured(_ p: UnsafePointer<UInt8>, _ i0: Int, _ end: Int, isInteger: inout Bool,
                             measure m: inout Measure) -> Int {
        var i = i0
        let negative = i < end && p[i] == 0x2D
        if negative { i += 1 }
        guard i < end else { return -1 }
        var mant: UInt64 = 0
        var sig = 0
        var frac = 0
        var hasExp = false
        let d0 = p[i] &- 0x30
        if d0 == 0 {
            i += 1
        } else if d0 < 10 {
            let s = i
            mant = UInt64(d0)
            i += 1
            while i < end {
                let d = p[i] &- 0x30
                if d >= 10 { break }
                mant = mant &* 10 &+ UInt64(d)
                i += 1
            }
            sig = i - s
        } else {
            return -1
        }
        var integer = true
        if i < end && p[i] == 0x2E {
            integer = false
            i += 1
            let s = i
            if sig == 0 {
                // Leading zeros of the fraction are not significant.
                while i < end && p[i] == 0x30 { i += 1 }
            }
            let z = i
            while i < end {
                let d = p[i] &- 0x30
                if d >= 10 { break }
                mant = mant &* 10 &+ UInt64(d)
                i += 1
            }
            if i == s { return -1 }
            sig += i - z
            frac = i - s
        }
        if i < end && (p[i] | 0x20) == 0x65 {
            integer = false
            hasExp = true
            i += 1
            if i < end && (p[i] == 0x2B || p[i] == 0x2D) { i += 1 }
            let s = i
            while i < end && p[i] &- 0x30 < 10 { i += 1 }
            if i == s { return -1 }
        }
        isInteger = integer
        m = Measure(mantissa: mant, significant: Int32(truncatingIfNeeded: sig),
                    fractionDigits: Int32(truncatingIfNeeded: frac), hasExponent: hasExp, negative: negative)
        return i
    }

    /// The correctly rounded double of the number `p[start..<end]` measured as `m`: exact
    /// division by a power of ten for up to 15 significant digits without exponent, else `strtod`.
    @inline(__always)
    static func double(_ m: Measure, _ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        if !m.hasExponent && m.significant <= 15 && m.fractionDigits <= 22 {
            if m.mantissa == 0 { return m.negative ? -0.0 : 0.0 }
            let v = Double(m.mantissa) / pow10[Int(m.fractionDigits)]
            return m.negative ? -v : v
        }
        return slowDouble(p, start, end)
    }

    /// The common numbers `-?[0-9]+(\.[0-9]+)?` of at most 15 digits, not followed by an exponent:
    /// the value (the same as `double` gives, by the same exact division) and the offset past the
    /// number; -1 for any other text (then `scanMeasured` decides). A leading zero followed by
    /// digits ends the number after the zero. The bytes must be followed, before the end of the
    /// buffer, by a byte that is neither a digit nor `.`; `tens` holds `pow10`.
    @inline(__always)
    static func plainDecimal(_ p: UnsafePointer<UInt8>, _ i0: Int, _ tens: UnsafePointer<Double>,
                             value: inout Double) -> Int {
        var i = i0
        let negative = p[i] == 0x2D
        if negative { i &+= 1 }
        let s = i
        var d = p[i] &- 0x30
        if d >= 10 { return -1 }
        var mant = UInt64(d)
        i &+= 1
        if d != 0 {
            d = p[i] &- 0x30
            while d < 10 {
                mant = mant &* 10 &+ UInt64(d)
                i &+= 1
                d = p[i] &- 0x30
            }
        }
        var digits = i &- s
        var frac = 0
        if p[i] == 0x2E {
            i &+= 1
            let f = i
            d = p[i] &- 0x30
            while d < 10 {
                mant = mant &* 10 &+ UInt64(d)
                i &+= 1
                d = p[i] &- 0x30
            }
            frac = i &- f
            if frac == 0 { return -1 }
            digits &+= frac
        }
        if digits > 15 || p[i] | 0x20 == 0x65 { return -1 }
        let v = Double(mant) / tens[frac]
        value = negative ? -v : v
        return i
    }

    /// The parts of a scanned number: sign, the digit positions, the decimal exponent.
    struct Parts {
        var negative = false
        var intStart = 0, intEnd = 0
        var fracStart = 0, fracEnd = 0
        /// The written exponent, saturated to +-10^9.
        var exponent = 0
    }

    /// Splits a number already validated by `scan`.
    @inline(__always)
    static func parts(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Parts {
        var r = Parts()
        var i = start
        if p[i] == 0x2D { r.negative = true; i += 1 }
        r.intStart = i
        while i < end && p[i] &- 0x30 < 10 { i += 1 }
        r.intEnd = i
        r.fracStart = i; r.fracEnd = i
        if i < end && p[i] == 0x2E {
            i += 1
            r.fracStart = i
            while i < end && p[i] &- 0x30 < 10 { i += 1 }
            r.fracEnd = i
        }
        if i < end {
            i += 1
            var neg = false
            if p[i] == 0x2B { i += 1 } else if p[i] == 0x2D { neg = true; i += 1 }
            var e = 0
            while i < end {
                if e < 1_000_000_000 { e = e * 10 + Int(p[i] &- 0x30) }
                i += 1
            }
            r.exponent = neg ? -e : e
        }
        return r
    }

    /// `strtod` on a NUL-terminated copy of the number text.
    static func slowDouble(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        let len = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: len + 1) { buf -> Double in
            guard let base = buf.baseAddress else { return .nan }
            UnsafeMutableRawPointer(base).copyMemory(from: p + start, byteCount: len)
            base[len] = 0
            return strtod(base, nil)
        }
    }

    /// `value * 10^scale` rounded to an integer, ties away from zero, computed on the written
    /// digits (no binary floating point). Nil when the result does not fit in an Int64.
    static func scaledInteger(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, scale: Int) -> Int64? {
        if end - start <= 24 && scale >= 0 && scale <= 3 {
            // Fast path: `-? digits (. digits)?` with at most `scale` fraction digits (an epoch in
            // seconds written with its milliseconds, `1797297648.000`), whose scaled value has at
            // most 18 digits, so below 10^18: no rounding, no overflow. The digits are summed
            // with wrapping arithmetic; a sum that wrapped fails the length test and is dropped.
            var i = start
            let negative = p[i] == 0x2D
            if negative { i &+= 1 }
            let intStart = i
            var v: Int64 = 0
            while i < end {
                let d = p[i] &- 0x30
                if d >= 10 { break }
                v = v &* 10 &+ Int64(d)
                i &+= 1
            }
            let intDigits = i &- intStart
            var fraction = 0
            if i < end && p[i] == 0x2E {
                i &+= 1
                let fracStart = i
                while i < end {
                    let d = p[i] &- 0x30
                    if d >= 10 { break }
                    v = v &* 10 &+ Int64(d)
                    i &+= 1
                }
                fraction = i &- fracStart
            }
            if i == end && intDigits > 0 && fraction <= scale && intDigits &+ scale <= 18 {
                var k = fraction
                while k < scale { v &*= 10; k &+= 1 }
                return negative ? -v : v
            }
        }
        return scaledIntegerOfDigits(p, start, end, scale: scale)
    }

    /// `scaledInteger` digit by digit on the number's parts: any exponent, any number of
    /// fraction digits (rounded at the first one dropped), overflow reported as nil.
    static func scaledIntegerOfDigits(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, scale: Int) -> Int64? {
        let n = parts(p, start, end)
        let fracLen = n.fracEnd - n.fracStart
        let count = (n.intEnd - n.intStart) + fracLen
        // Place value (power of ten) of the last written digit after scaling.
        let lastExp = n.exponent - fracLen + scale
        // Digits [0, keep) have place value >= 0; digit `keep` (if any) decides the rounding.
        let keep = lastExp >= 0 ? count : max(0, count + lastExp)
        var acc: Int64 = 0
        var roundUp = false
        var k = 0
        var i = n.intStart
        while k < count {
            if i == n.intEnd { i = n.fracStart }
            let d = Int64(p[i] &- 0x30)
            if k < keep {
                let (m, o1) = acc.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(d)
                if o1 || o2 { return nil }
                acc = s
            } else {
                if k == count + lastExp { roundUp = d >= 5 }
                break
            }
            k += 1
            i += 1
        }
        if lastExp > 0 && acc != 0 {
            if lastExp > 18 { return nil }
            var e = 0
            while e < lastExp {
                let (m, o) = acc.multipliedReportingOverflow(by: 10)
                if o { return nil }
                acc = m
                e += 1
            }
        }
        if roundUp {
            let (s, o) = acc.addingReportingOverflow(1)
            if o { return nil }
            acc = s
        }
        return n.negative ? -acc : acc
    }
}
