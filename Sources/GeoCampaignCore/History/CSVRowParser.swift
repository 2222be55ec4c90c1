#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses the rows of a CSV history (RFC 4180; docs/history-format.md) into fixes, or the reason
/// a row is rejected, with the reasons and their order of JSON Lines (formats.md 2.1).
///
/// The header row names the columns and decides the separator (`,` or `;`, see
/// `setHeader(_:)`); `--field` maps a canonical field to another column. A row is checked for
/// length (`too_long`), UTF-8 (`bad_encoding`), its quoting and its number of columns (both
/// `bad_type`), then the fields in the order user, ts, lat, lon, accuracy: an empty cell is
/// `missing_field`, text that is not a number `bad_type` (a timestamp that is neither RFC 3339 nor
/// a number `bad_timestamp`), then the ranges. No `String` is created for an accepted row.
///
/// ```swift
/// let parser = CSVRowParser(header: Array("user,ts,lat,lon".utf8))
/// parser.parse(row: Array("u-17,2026-11-29 10:00:05Z,37.70301,-121.7599".utf8))
/// // .accepted(user: "u-17", fix: ...)
/// ```
///
/// Not thread-safe: use one parser per thread.
public final class CSVRowParser: HistoryLineParser {
    /// What `parse(row:)` gives: blank, accepted with the user id, or rejected with a reason.
    public typealias Outcome = JSONLineParser.Outcome

    /// Rows longer than this many bytes (terminator excluded) are `too_long`.
    public static let maxRowBytes = JSONLineParser.maxLineBytes

    /// How the row's cells failed to split.
    enum Malformed { case none, quoteInUnquoted, textAfterQuote, unclosedQuote }

    let fields: HistoryFields
    /// The separator, `,` or `;`: detected by `setHeader`.
    @exclusivity(unchecked) public private(set) var separator: UInt8 = 0x2C
    /// The number of columns of the header; 0 before a header is set.
    @exclusivity(unchecked) public private(set) var columnCount = 0
    /// Whether the file's header is still to come (its first non-blank row).
    @exclusivity(unchecked) public internal(set) var awaitingHeader = true
    /// Why the header could not be used (then every row is `missing_field`), or nil.
    @exclusivity(unchecked) private(set) var headerProblem: String?
    /// The reason a header that cannot be used is rejected with: `bad_encoding` for invalid
    /// UTF-8, else `bad_type`.
    @exclusivity(unchecked) private(set) var headerProblemReason: RejectReason = .badType
    /// The header's column names, for details.
    private var columnNames: [String] = []
    /// For each canonical field, its column (-1 when the header has none).
    private let columnOf: UnsafeMutablePointer<Int>
    /// For each column (`roleCapacity` entries), the canonical fields read from it, as a bit mask.
    @exclusivity(unchecked) private var roles: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var roleCapacity: Int
    /// The cells of the canonical fields in the last row: bounds and whether `""` occurs.
    private let cellStart: UnsafeMutablePointer<Int>
    private let cellEnd: UnsafeMutablePointer<Int>
    private let cellEscaped: UnsafeMutablePointer<Bool>
    /// The unescaped user id, a timestamp with a space for `T`, a number with a decimal comma.
    @exclusivity(unchecked) private var buffers = ParserBuffers()
    private let epochScale: Int
    /// The last date seen by a timestamp.
    @exclusivity(unchecked) private var dateCache = RFC3339.DateCache()

    /// The fix of the last accepted row.
    @exclusivity(unchecked) var fix = Fix(time: 0, lat: 0, lon: 0)
    /// The user id bytes of the last accepted row: into the row or a parser buffer, valid until
    /// the next call.
    @exclusivity(unchecked) var userPtr: UnsafePointer<UInt8>
    @exclusivity(unchecked) var userLen = 0
    /// The reason and detail of the last rejected row.
    @exclusivity(unchecked) private(set) var reason: RejectReason = .badType
    @exclusivity(unchecked) private(set) var detail = ""

    /// Creates a parser reading the canonical fields from the columns named by `fields`; the
    /// first row given to `setHeader` is the header.
    public init(fields: HistoryFields = HistoryFields()) {
        self.fields = fields
        epochScale = fields.epochUnit.millisecondScale
        columnOf = UnsafeMutablePointer<Int>.allocate(capacity: 5)
        columnOf.initialize(repeating: -1, count: 5)
        roleCapacity = 16
        roles = UnsafeMutablePointer<UInt8>.allocate(capacity: roleCapacity)
        roles.initialize(repeating: 0, count: roleCapacity)
        cellStart = UnsafeMutablePointer<Int>.allocate(capacity: 5)
        cellStart.initialize(repeating: 0, count: 5)
        cellEnd = UnsafeMutablePointer<Int>.allocate(capacity: 5)
        cellEnd.initialize(repeating: 0, count: 5)
        cellEscaped = UnsafeMutablePointer<Bool>.allocate(capacity: 5)
        cellEscaped.initialize(repeating: false, count: 5)
        userPtr = UnsafePointer(buffers.user)
    }

    /// Creates a parser with `header` (the header row's bytes, without its line end) set.
    public convenience init(header: [UInt8], fields: HistoryFields = HistoryFields()) {
        self.init(fields: fields)
        _ = setHeader(header)
    }

    deinit {
        columnOf.deallocate()
        roles.deallocate()
        cellStart.deallocate()
        cellEnd.deallocate()
        cellEscaped.deallocate()
    }

    /// Parses one data row (its bytes without the final line end; inner line ends of quoted
    /// cells included) under `header`: the entry point for fuzzing.
    /// - Returns: `.blank` for a row of only spaces and tabs, `.accepted` with the user id and
    ///   the fix, or `.rejected` with the reason and a detail.
    public static func parseRow(_ row: [UInt8], header: [UInt8], fields: HistoryFields = HistoryFields()) -> Outcome {
        CSVRowParser(header: header, fields: fields).parse(row: row)
    }

    /// Parses one data row under the header set (see `parseRow`).
    public func parse(row: [UInt8]) -> Outcome { outcome(row) }

    /// Sets the header from its row's bytes: detects the separator (whichever of `,` and `;`
    /// occurs more often outside quotes; `,` on a tie) and finds the column of each canonical
    /// field (by exact name after unquoting and trimming spaces and tabs; the last of duplicate
    /// names wins).
    /// - Returns: nil, or why the header cannot be used (malformed quoting, invalid UTF-8); then
    ///   every later row is `missing_field`.
    @discardableResult
    public func setHeader(_ header: [UInt8]) -> String? {
        header.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, buf.count > 0 else { return unusableHeader("the header row is empty") }
            return setHeader(base, buf.count)
        }
    }

    /// `setHeader(_:)` on `p[0..<n]`.
    func setHeader(_ p: UnsafePointer<UInt8>, _ n: Int) -> String? {
        awaitingHeader = false
        columnCount = 0
        columnNames = []
        columnOf.update(repeating: -1, count: 5)
        headerProblem = nil
        if let bad = UTF8Check.firstInvalid(p, n) {
            return unusableHeader("the header row has invalid UTF-8 at byte \(bad + 1)", reason: .badEncoding)
        }
        var commas = 0, semicolons = 0, quoted = false
        for i in 0..<n {
            switch p[i] {
            case 0x22: quoted.toggle()
            case 0x2C where !quoted: commas += 1
            case 0x3B where !quoted: semicolons += 1
            default: break
            }
        }
        separator = semicolons > commas ? 0x3B : 0x2C
        var names: [String] = []
        var i = 0
        while true {
            var s = 0, e = 0, escaped = false
            let m = cell(p, &i, n, &s, &e, &escaped)
            if m != .none { return unusableHeader("malformed header row: \(describe(m, i))") }
            var bytes = Array(UnsafeBufferPointer(start: p + s, count: e - s))
            if escaped { bytes = CSVRowParser.unescaped(bytes) }
            names.append(String(decoding: bytes, as: UTF8.self))
            if i >= n { break }
            i += 1
        }
        columnNames = names
        columnCount = names.count
        if columnCount > roleCapacity {
            roles.deallocate()
            roleCapacity = columnCount
            roles = UnsafeMutablePointer<UInt8>.allocate(capacity: roleCapacity)
        }
        roles.initialize(repeating: 0, count: roleCapacity)
        for (f, source) in fields.sources.enumerated() {
            if let c = names.lastIndex(of: source) {
                columnOf[f] = c
                roles[c] |= 1 << UInt8(f)
            }
        }
        return nil
    }

    /// Marks the header as unusable for `why` (every later row is then `missing_field`).
    @discardableResult
    func unusableHeader(_ why: String, reason: RejectReason = .badType) -> String {
        awaitingHeader = false
        headerProblemReason = reason
        columnCount = 0
        columnNames = []
        columnOf.update(repeating: -1, count: 5)
        roles.update(repeating: 0, count: roleCapacity)
        headerProblem = why
        return why
    }

    /// The next file's first non-blank row is its header.
    func beginFile() {
        awaitingHeader = true
        headerProblem = nil
    }

    @inline(__always)
    private func reject(_ r: RejectReason, _ d: String) -> JSONLineParser.Status {
        reason = r
        detail = d
        return .rejected
    }

    @inline(__always)
    private static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// Whether the row `p[0..<n]` holds only spaces and tabs.
    static func isBlankRow(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i < n && isBlank(p[i]) { i += 1 }
        return i == n
    }

    /// Splits off the cell starting at `i`: leaves its content bounds in `s..<e` (inside the
    /// quotes of a quoted cell; an unquoted cell without the spaces and tabs around it), whether
    /// it holds `""`, and `i` at the separator after it or at `n`.
    @inline(__always)
    func cell(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, _ s: inout Int, _ e: inout Int,
              _ escaped: inout Bool) -> Malformed {
        var j = i
        while j < n && CSVRowParser.isBlank(p[j]) { j += 1 }
        let sep = separator
        if j < n && p[j] == 0x22 {
            var k = j + 1
            var esc = false
            while true {
                guard k < n, let hit = memchr(p + k, 0x22, n - k) else {
                    i = j
                    return .unclosedQuote
                }
                let q = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - p
                if q + 1 < n && p[q + 1] == 0x22 {
                    esc = true
                    k = q + 2
                    continue
                }
                s = j + 1
                e = q
                escaped = esc
                k = q + 1
                while k < n && CSVRowParser.isBlank(p[k]) { k += 1 }
                if k < n && p[k] != sep {
                    i = k
                    return .textAfterQuote
                }
                i = k
                return .none
            }
        }
        var k = j
        // Eight bytes at a time to the first separator or quote (the lowest flagged byte is exact).
        let seps = UInt64(sep) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(p)
        while k &+ 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            let a = v ^ seps, b = v ^ 0x2222_2222_2222_2222
            let hits = ((a &- 0x0101_0101_0101_0101) & ~a | (b &- 0x0101_0101_0101_0101) & ~b) & 0x8080_8080_8080_8080
            if hits != 0 {
                k &+= hits.trailingZeroBitCount >> 3
                break
            }
            k &+= 8
        }
        while k < n {
            let c = p[k]
            if c == sep { break }
            if c == 0x22 {
                i = k
                return .quoteInUnquoted
            }
            k += 1
        }
        var end = k
        while end > j && CSVRowParser.isBlank(p[end - 1]) { end -= 1 }
        s = j
        e = end
        escaped = false
        i = k
        return .none
    }

    private func describe(_ m: Malformed, _ at: Int) -> String {
        switch m {
        case .none: return ""
        case .quoteInUnquoted: return "a quote inside an unquoted cell at byte \(at + 1) (quote the cell and double the quote)"
        case .textAfterQuote: return "text after a closing quote at byte \(at + 1)"
        case .unclosedQuote: return "the quote at byte \(at + 1) is never closed"
        }
    }

    /// `bytes` with every `""` made `"`.
    static func unescaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            out.append(bytes[i])
            i += bytes[i] == 0x22 && i + 1 < bytes.count && bytes[i + 1] == 0x22 ? 2 : 1
        }
        return out
    }

    private func name(_ f: Int) -> String { "\"" + fields.sources[f] + "\"" }

    /// The cell of field `f` as quoted text for a detail (at most 80 bytes).
    private func text(_ p: UnsafePointer<UInt8>, _ f: Int) -> String {
        let s = cellStart[f], e = cellEnd[f]
        let n = min(e - s, 80)
        return "\"" + String(decoding: UnsafeBufferPointer(start: p + s, count: n), as: UTF8.self)
            + (e - s > 80 ? "...\"" : "\"")
    }

    /// Parses the row `p[0..<n]`; results are left in `fix`, `userPtr`/`userLen` or
    /// `reason`/`detail`.
    func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONLineParser.Status {
        var i = 0
        while i < n && CSVRowParser.isBlank(p[i]) { i += 1 }
        if i == n { return .blank }
        if n > CSVRowParser.maxRowBytes {
            return reject(.tooLong, "row is \(n) bytes, over the limit of 1 MiB")
        }
        if let bad = UTF8Check.firstInvalid(p, n) {
            return reject(.badEncoding, "invalid UTF-8 at byte \(bad + 1)")
        }
        i = 0
        var column = 0
        let count = columnCount
        while true {
            var s = 0, e = 0, escaped = false
            let m = cell(p, &i, n, &s, &e, &escaped)
            if m != .none { return reject(.badType, "malformed CSV row: \(describe(m, i))") }
            if column < count {
                var mask = roles[column]
                while mask != 0 {
                    let f = mask.trailingZeroBitCount
                    cellStart[f] = s
                    cellEnd[f] = e
                    cellEscaped[f] = escaped
                    mask &= mask &- 1
                }
            }
            column += 1
            if i >= n { break }
            i += 1
        }
        if column != count && headerProblem == nil {
            return reject(.badType, "the row has \(column) column\(column == 1 ? "" : "s"), the header \(count)")
        }
        return checkFields(p, n)
    }

    /// The detail of a field whose column the header lacks.
    private func missingColumn(_ f: Int) -> String {
        if let why = headerProblem { return "missing field \(name(f)): \(why)" }
        let shown = columnNames.prefix(12).map { "\"" + $0 + "\"" }.joined(separator: ", ")
        return "missing field \(name(f)): the header has no column \(name(f)) (columns: \(shown)\(columnNames.count > 12 ? ", ..." : ""))"
    }

    /// Applies the field rules in order user, ts, lat, lon, accuracy.
    private func checkFields(_ p: UnsafePointer<UInt8>, _ rowLength: Int) -> JSONLineParser.Status {
        // user
        if columnOf[0] < 0 { return reject(.missingField, missingColumn(0)) }
        var s = cellStart[0], e = cellEnd[0]
        if e == s { return reject(.missingField, "field \(name(0)) is empty") }
        if cellEscaped[0] {
            let user = buffers.user(atLeast: e - s)
            var k = 0, j = s
            while j < e {
                user[k] = p[j]
                k += 1
                j += p[j] == 0x22 ? 2 : 1
            }
            userPtr = UnsafePointer(user)
            userLen = k
        } else {
            userPtr = p + s
            userLen = e - s
        }
        // ts
        if columnOf[1] < 0 { return reject(.missingField, missingColumn(1)) }
        s = cellStart[1]
        e = cellEnd[1]
        if e == s { return reject(.missingField, "field \(name(1)) is empty") }
        var time: Int64?
        var numeric = false
        if !cellEscaped[1] {
            let c = p[s]
            if c == 0x2D || c &- 0x30 < 10 {
                var isInteger = false
                let (q, qs, qe) = numberText(p, s, e)
                let end = JSONNumber.scan(q, qs, qe, isInteger: &isInteger)
                if end == qe {
                    numeric = true
                    if let v = JSONNumber.scaledInteger(q, qs, qe, scale: epochScale),
                       v >= RFC3339.minMilliseconds, v <= RFC3339.maxMilliseconds {
                        time = v
                    }
                }
            }
            if !numeric {
                if e - s > 10 && p[s + 10] == 0x20 {
                    let copy = buffers.tmp(atLeast: e - s)
                    copy.update(from: p + s, count: e - s)
                    copy[10] = 0x54
                    time = RFC3339.parse(UnsafePointer(copy), 0, e - s, offsetRequired: true, cache: &dateCache)
                } else {
                    // The common shapes when a byte follows the cell in the row; else the full parser.
                    var end = 0
                    if let v = RFC3339.parseCommon(p, s, rowLength, cache: &dateCache, end: &end), end == e {
                        time = v
                    } else {
                        time = RFC3339.parse(p, s, e, offsetRequired: true, cache: &dateCache)
                    }
                }
            }
        }
        guard let t = time else {
            return reject(.badTimestamp, numeric
                ? "field \(name(1)) is \(text(p, 1)) \(fields.epochUnit.noun), outside years 0001-9999"
                : "field \(name(1)) is \(text(p, 1)), not an RFC 3339 timestamp with offset in years 0001-9999 nor a number")
        }
        // lat, lon
        var coord = (0.0, 0.0)
        for f in 2...3 {
            if columnOf[f] < 0 { return reject(.missingField, missingColumn(f)) }
            if cellEnd[f] == cellStart[f] { return reject(.missingField, "field \(name(f)) is empty") }
            guard let v = number(p, f) else {
                return reject(.badType, "field \(name(f)) is \(text(p, f)), expected a number")
            }
            let limit: Double = f == 2 ? 90 : 180
            if !(v >= -limit && v <= limit) {
                return reject(.outOfRange, "field \(name(f)) is \(text(p, f)), outside [\(-Int(limit)), \(Int(limit))]")
            }
            if f == 2 { coord.0 = v } else { coord.1 = v }
        }
        // accuracy: no column or an empty cell is no accuracy.
        var accuracy = Double.nan
        if columnOf[4] >= 0 && cellEnd[4] > cellStart[4] {
            guard let v = number(p, 4) else {
                return reject(.badType, "field \(name(4)) is \(text(p, 4)), expected a number or an empty cell")
            }
            if !(v >= 0) {
                return reject(.outOfRange, "field \(name(4)) is \(text(p, 4)), expected a number >= 0")
            }
            accuracy = v
        }
        fix = Fix(time: t, lat: coord.0, lon: coord.1, accuracy: accuracy)
        return .accepted
    }

    /// The common numbers `-?[0-9]+(\.[0-9]+)?` of at most 15 digits in `p[s..<e]` (no leading
    /// zero before another digit): the value `JSONNumber.double` gives, by the same exact
    /// division; nil for any other text (then the full scan decides).
    @inline(__always)
    private func plainNumber(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
        var i = s
        let negative = i < e && p[i] == 0x2D
        if negative { i &+= 1 }
        let ds = i
        var mant: UInt64 = 0
        while i < e {
            let d = p[i] &- 0x30
            if d >= 10 { break }
            mant = mant &* 10 &+ UInt64(d)
            i &+= 1
        }
        let intDigits = i &- ds
        if intDigits == 0 || (intDigits > 1 && p[ds] == 0x30) { return nil }
        var frac = 0
        if i < e && p[i] == 0x2E {
            i &+= 1
            let f = i
            while i < e {
                let d = p[i] &- 0x30
                if d >= 10 { break }
                mant = mant &* 10 &+ UInt64(d)
                i &+= 1
            }
            frac = i &- f
            if frac == 0 { return nil }
        }
        if i != e || intDigits &+ frac > 15 { return nil }
        let v = Double(mant) / buffers.powersOfTen[frac]
        return negative ? -v : v
    }

    /// The bytes of a number cell `p[s..<e]` as JSON number text: in place, or (with the `;`
    /// separator, where a decimal comma is allowed) a copy with its comma made a point.
    @inline(__always)
    private func numberText(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> (UnsafePointer<UInt8>, Int, Int) {
        guard separator == 0x3B, memchr(p + s, 0x2C, e - s) != nil else { return (p, s, e) }
        return (decimalPoints(p, s, e), 0, e - s)
    }

    /// `p[s..<e]` with its commas made points, in the parser's buffer (out of line: the common
    /// cells need no copy).
    @inline(never)
    private func decimalPoints(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> UnsafePointer<UInt8> {
        let copy = buffers.tmp(atLeast: e - s)
        for k in 0..<(e - s) { copy[k] = p[s + k] == 0x2C ? 0x2E : p[s + k] }
        return UnsafePointer(copy)
    }

    /// The value of the number cell of field `f` (RFC 8259 grammar), or nil when it is not one.
    @inline(__always)
    private func number(_ p: UnsafePointer<UInt8>, _ f: Int) -> Double? {
        if cellEscaped[f] { return nil }
        let (q, s, e) = numberText(p, cellStart[f], cellEnd[f])
        if let v = plainNumber(q, s, e) { return v }
        var isInteger = false
        var measure = JSONNumber.Measure()
        let end = JSONNumber.scanMeasured(q, s, e, isInteger: &isInteger, measure: &measure)
        guard end == e else { return nil }
        return JSONNumber.double(measure, q, s, e)
    }
}
