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

    /// The correctly rounded double of a number already validated by `scan` (infinite when it
    /// overflows). Up to 15 significant digits with a small exponent are converted exactly with
    /// one multiplication or division by an exact power of ten; anything else goes to `strtod`.
    static func double(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        let n = parts(p, start, end)
        var mant: UInt64 = 0
        var digits = 0
        var i = n.intStart
        while i < n.intEnd {
            let d = UInt64(p[i] &- 0x30)
            if digits > 0 || d != 0 { digits += 1 }
            mant = mant &* 10 &+ d
            i += 1
        }
        i = n.fracStart
        while i < n.fracEnd {
            let d = UInt64(p[i] &- 0x30)
            if digits > 0 || d != 0 { digits += 1 }
            mant = mant &* 10 &+ d
            i += 1
        }
        if digits <= 15 {
            let e = n.exponent - (n.fracEnd - n.fracStart)
            if mant == 0 { return n.negative ? -0.0 : 0.0 }
            var v = Double(mant)
            if e >= 0 && e <= 22 {
                v *= pow10[e]
                return n.negative ? -v : v
            }
            if e < 0 && e >= -22 {
                v /= pow10[-e]
                return n.negative ? -v : v
            }
        }
        return slowDouble(p, start, end)
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
