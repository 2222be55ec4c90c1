extension JSONLineParser {
    /// The fast path for the common line shape: the members user, ts, lat, lon and (optionally)
    /// accuracy in that order, written without whitespace, escapes or non-ASCII bytes, and with
    /// values of the accepted types. Returns true, with `fix` and `userPtr`/`userLen` set, only for
    /// lines the full parser accepts with the same values; false means "not decided here" (the
    /// line may still be valid) and the caller runs `parseFully`.
    ///
    /// Every byte of an accepted line is checked by the shape itself (so it is ASCII and UTF-8
    /// validation is not needed), and a line ends with `}`, which stops every digit scan before
    /// the end of the line.
    @inline(__always)
    func parseCommon(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard n >= 2, n <= JSONLineParser.maxLineBytes, p[n &- 1] == 0x7D else { return false }
        let raw = UnsafeRawPointer(p)
        let pre = prefixes
        let tens = buffers.powersOfTen
        // user: a plain non-empty string or an unsigned integer literal.
        guard pre[0].matches(raw, 0, n) else { return false }
        var i = pre[0].len
        let userStart: Int
        let userCount: Int
        if p[i] == 0x22 {
            let s = i &+ 1
            let e = JSONLineParser.plainStringEnd(raw, s, n)
            guard e > s else { return false }
            userStart = s
            userCount = e &- s
            i = e &+ 1
        } else {
            let s = i
            let d = p[i] &- 0x30
            guard d < 10 else { return false }
            i &+= 1
            // A leading zero followed by digits is caught by the next prefix test.
            if d != 0 { while p[i] &- 0x30 < 10 { i &+= 1 } }
            userStart = s
            userCount = i &- s
        }
        // ts: a plain string timestamp, or a number of epoch seconds (or milliseconds).
        guard pre[1].matches(raw, i, n) else { return false }
        i &+= pre[1].len
        let time: Int64
        if p[i] == 0x22 {
            let s = i &+ 1
            var e = 0
            if let v = RFC3339.parseCommon(p, s, n, cache: &dateCache, end: &e), p[e] == 0x22 {
                time = v
            } else {
                e = JSONLineParser.plainStringEnd(raw, s, n)
                guard e >= 0, let v = RFC3339.parse(p, s, e, offsetRequired: true, cache: &dateCache) else {
                    return false
                }
                time = v
            }
            i = e &+ 1
        } else {
            var isInteger = false
            let e = JSONNumber.scan(p, i, n, isInteger: &isInteger)
            guard e > 0, let v = JSONNumber.scaledInteger(p, i, e, scale: epochScale),
                  v >= RFC3339.minMilliseconds, v <= RFC3339.maxMilliseconds else { return false }
            time = v
            i = e
        }
        // lat, lon
        guard pre[2].matches(raw, i, n) else { return false }
        i &+= pre[2].len
        var lat = 0.0
        var e = JSONNumber.plainDecimal(p, i, tens, value: &lat)
        i = e >= 0 ? e : JSONLineParser.number(p, i, n, &lat)
        guard i > 0, lat >= -90, lat <= 90, pre[3].matches(raw, i, n) else { return false }
        i &+= pre[3].len
        var lon = 0.0
        e = JSONNumber.plainDecimal(p, i, tens, value: &lon)
        i = e >= 0 ? e : JSONLineParser.number(p, i, n, &lon)
        guard i > 0, lon >= -180, lon <= 180 else { return false }
        // accuracy: absent, null, or a number >= 0.
        var accuracy = Double.nan
        if i != n &- 1 {
            guard pre[4].matches(raw, i, n) else { return false }
            i &+= pre[4].len
            if p[i] == 0x6E {
                guard i &+ 4 < n, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == 0x6C6C_756E else {
                    return false
                }
                i &+= 4
            } else {
                var v = 0.0
                e = JSONNumber.plainDecimal(p, i, tens, value: &v)
                i = e >= 0 ? e : JSONLineParser.number(p, i, n, &v)
                guard i > 0, v >= 0 else { return false }
                accuracy = v
            }
            guard i == n &- 1 else { return false }
        }
        userPtr = p + userStart
        userLen = userCount
        fix = Fix(time: time, lat: lat, lon: lon, accuracy: accuracy)
        return true
    }

    /// The offset of the closing quote of the string body starting at `i0`, when every byte
    /// before it is printable ASCII other than a backslash; else -1 (also when the quote is in
    /// the last 8 bytes of the line: only whole 8-byte words are read).
    @inline(__always)
    static func plainStringEnd(_ raw: UnsafeRawPointer, _ i0: Int, _ n: Int) -> Int {
        var i = i0
        while i &+ 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let q = v ^ 0x2222_2222_2222_2222
            let b = v ^ 0x5C5C_5C5C_5C5C_5C5C
            // The lowest flagged byte is exact: a quote, a backslash, a control byte or >= 0x80.
            let hits = ((q &- 0x0101_0101_0101_0101) & ~q | (b &- 0x0101_0101_0101_0101) & ~b
                | (v &- 0x2020_2020_2020_2020) & ~v | v) & 0x8080_8080_8080_8080
            if hits == 0 {
                i &+= 8
                continue
            }
            let k = i &+ hits.trailingZeroBitCount >> 3
            return raw.load(fromByteOffset: k, as: UInt8.self) == 0x22 ? k : -1
        }
        return -1
    }

    /// A number value at `i` that is not a plain decimal: the full scan and conversion.
    /// Returns the offset past it, or -1 when there is no valid number there.
    @inline(never)
    static func number(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ value: inout Double) -> Int {
        var isInteger = false
        var measure = JSONNumber.Measure()
        let end = JSONNumber.scanMeasured(p, i, n, isInteger: &isInteger, measure: &measure)
        if end < 0 { return -1 }
        value = JSONNumber.double(measure, p, i, end)
        return end
    }
}
