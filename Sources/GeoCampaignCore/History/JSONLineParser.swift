#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses one JSON Lines history line into a fix, or the reason it is rejected (formats.md 2.1).
///
/// The line is validated as a whole (UTF-8, then RFC 8259), the five fields are located by
/// comparing key bytes (after unescaping, the last duplicate wins), and then checked in the order
/// user, ts, lat, lon, accuracy. No `String` is created for an accepted line.
///
/// Not thread-safe: use one parser per thread.
public final class JSONLineParser: HistoryLineParser {
    /// Lines longer than this many bytes (terminator excluded) are `too_long`.
    public static let maxLineBytes = 1 << 20

    /// The result of parsing one line.
    public enum Outcome: Equatable, Sendable {
        /// Only spaces and tabs: ignored (but counted as a line).
        case blank
        /// An accepted fix with its user id (decoded, or the integer literal's text).
        case accepted(user: String, fix: Fix)
        /// A rejected line.
        case rejected(RejectReason, detail: String)
    }

    /// The status of the last `parse` call on the raw entry point.
    enum Status { case blank, accepted, rejected }

    enum Kind: UInt8 { case missing, string, number, null, bool, object, array }

    struct Slot {
        var kind: Kind = .missing
        var start = 0
        var end = 0
        /// String: has escapes. Number: is an integer literal.
        var flag = false
        /// Number: its digits, measured while scanning.
        var measure = JSONNumber.Measure()
    }

    let fields: HistoryFields
    private let keyPtr: UnsafeMutablePointer<UInt8>
    private let keyStart: UnsafeMutablePointer<Int>
    private let keyLen: UnsafeMutablePointer<Int>
    /// The first (up to) 8 bytes of each key, little-endian.
    private let keyHead: UnsafeMutablePointer<UInt64>
    /// Each key followed by its closing quote, and the mask of those bytes, when that fits in
    /// 8 bytes and the key needs no escaping (else the mask is 0): matched straight from the line.
    private let keyQuoted: UnsafeMutablePointer<UInt64>
    private let keyQuotedMask: UnsafeMutablePointer<UInt64>
    /// Whether two canonical fields are read from the same key (then a key may fill several).
    private let sharedKeys: Bool
    private let slots: UnsafeMutablePointer<Slot>
    /// The decoded user id, key or timestamp of a line with escapes; `JSONNumber.pow10` for the
    /// fast path.
    @exclusivity(unchecked) var buffers = ParserBuffers()
    @exclusivity(unchecked) private var stack: [Bool] = []
    /// The last date seen by a timestamp (both parsers share it).
    @exclusivity(unchecked) var dateCache = RFC3339.DateCache()
    /// The member prefixes of the common line shape (see `JSONLineParser+CommonShape.swift`), and
    /// whether that fast path can be used with these keys (plain ASCII keys, none shared, each
    /// prefix at most 16 bytes).
    let prefixes: UnsafeMutablePointer<MemberPrefix>
    let fastPathEnabled: Bool
    /// The power of ten that turns a numeric timestamp into milliseconds (`fields.epochUnit`).
    let epochScale: Int

    /// The fix of the last accepted line.
    @exclusivity(unchecked) var fix = Fix(time: 0, lat: 0, lon: 0)
    /// The user id bytes of the last accepted line: into the line itself or into a parser buffer,
    /// valid until the next call.
    @exclusivity(unchecked) var userPtr: UnsafePointer<UInt8>
    @exclusivity(unchecked) var userLen = 0
    /// The reason and detail of the last rejected line.
    @exclusivity(unchecked) private(set) var reason: RejectReason = .invalidJSON
    @exclusivity(unchecked) private(set) var detail = ""

    /// Creates a parser reading the canonical fields from the keys of `fields`.
    public init(fields: HistoryFields = HistoryFields()) {
        self.fields = fields
        epochScale = fields.epochUnit.millisecondScale
        let keys = fields.sources.map { Array($0.utf8) }
        sharedKeys = Set(keys).count < keys.count
        let total = keys.reduce(0) { $0 + $1.count }
        keyPtr = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, total))
        keyStart = UnsafeMutablePointer<Int>.allocate(capacity: 5)
        keyLen = UnsafeMutablePointer<Int>.allocate(capacity: 5)
        keyHead = UnsafeMutablePointer<UInt64>.allocate(capacity: 5)
        keyQuoted = UnsafeMutablePointer<UInt64>.allocate(capacity: 5)
        keyQuotedMask = UnsafeMutablePointer<UInt64>.allocate(capacity: 5)
        var o = 0
        for (f, k) in keys.enumerated() {
            keyStart[f] = o
            keyLen[f] = k.count
            var head: UInt64 = 0
            for (j, b) in k.enumerated() {
                keyPtr[o + j] = b
                if j < 8 { head |= UInt64(b) << (8 * UInt64(j)) }
            }
            keyHead[f] = head
            let plain = k.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }
            if plain && k.count < 8 {
                keyQuoted[f] = head | (0x22 << (8 * UInt64(k.count)))
                keyQuotedMask[f] = (1 << (8 * UInt64(k.count + 1))) &- 1
            } else {
                keyQuoted[f] = 0
                keyQuotedMask[f] = 0
            }
            o += k.count
        }
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: 5)
        slots.initialize(repeating: Slot(), count: 5)
        userPtr = UnsafePointer(buffers.user)
        prefixes = UnsafeMutablePointer<MemberPrefix>.allocate(capacity: 5)
        var fast = !sharedKeys
        for (f, k) in keys.enumerated() {
            let prefix = MemberPrefix(key: k, first: f == 0)
            fast = fast && prefix != nil
            (prefixes + f).initialize(to: prefix ?? MemberPrefix())
        }
        fastPathEnabled = fast
    }

    deinit {
        keyPtr.deallocate()
        keyStart.deallocate()
        keyLen.deallocate()
        keyHead.deallocate()
        keyQuoted.deallocate()
        keyQuotedMask.deallocate()
        slots.deallocate()
        prefixes.deallocate()
    }

    /// Parses one line (without its `\n` or `\r\n` terminator) and returns the outcome.
    /// This is the line-level entry point; the reader uses a faster internal path.
    public func parse(line: [UInt8]) -> Outcome { outcome(line) }

    @inline(__always)
    private func reject(_ r: RejectReason, _ d: String) -> Status {
        reason = r
        detail = d
        return .rejected
    }

    private func invalid(_ at: Int, _ n: Int) -> Status {
        reject(.invalidJSON, at >= n ? "not valid JSON: unexpected end of line"
                                     : "not valid JSON at column \(at + 1)")
    }

    /// Bitmask of the fields whose source key equals the key body `p[s..<e]` (raw, unescaped);
    /// `n` is the line length (bytes up to `n` may be read).
    @inline(__always)
    private func matchKey(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, _ n: Int) -> Int {
        let kn = e - s
        var head: UInt64
        if s + 8 <= n {
            head = UnsafeRawPointer(p + s).loadUnaligned(as: UInt64.self)
            if kn < 8 { head &= (1 << (8 * UInt64(kn))) &- 1 }
        } else {
            head = 0
            var j = 0
            while j < kn && j < 8 {
                head |= UInt64(p[s + j]) << (8 * UInt64(j))
                j += 1
            }
        }
        var mask = 0
        var f = 0
        while f < 5 {
            if keyHead[f] == head && keyLen[f] == kn
                && (kn <= 8 || memcmp(p + s + 8, keyPtr + keyStart[f] + 8, kn - 8) == 0) {
                mask |= 1 << f
            }
            f += 1
        }
        return mask
    }

    /// `matchKey` for a key body holding escapes: decoded first.
    private func matchEscapedKey(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Int {
        let key = buffers.tmp(atLeast: e - s)
        var lone = false
        let kn = JSONScan.decode(p, s, e, into: key, loneSurrogate: &lone)
        return matchKey(UnsafePointer(key), 0, kn, kn)
    }

    private func kindName(_ k: Kind) -> String {
        switch k {
        case .missing: return "missing"
        case .string: return "a string"
        case .number: return "a number"
        case .null: return "null"
        case .bool: return "a boolean"
        case .object: return "an object"
        case .array: return "an array"
        }
    }

    private func name(_ f: Int) -> String { "\"" + fields.sources[f] + "\"" }

    private func text(_ p: UnsafePointer<UInt8>, _ s: Slot) -> String {
        let n = min(s.end - s.start, 80)
        return String(decoding: UnsafeBufferPointer(start: p + s.start, count: n), as: UTF8.self)
            + (s.end - s.start > 80 ? "..." : "")
    }

    /// Parses the line `p[0..<n]`; results are left in `fix`, `userPtr`/`userLen` or
    /// `reason`/`detail`. Lines of the common shape take the fast path; any other line, and any
    /// line the fast path would not accept, goes through the full parser.
    func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> Status {
        if fastPathEnabled && parseCommon(p, n) { return .accepted }
        return parseFully(p, n)
    }

    /// The full strict parser: validates the whole line (UTF-8, then RFC 8259), then the fields.
    func parseFully(_ p: UnsafePointer<UInt8>, _ n: Int) -> Status {
        var i = 0
        while i < n && (p[i] == 0x20 || p[i] == 0x09) { i += 1 }
        if i == n { return .blank }
        if n > JSONLineParser.maxLineBytes {
            return reject(.tooLong, "line is \(n) bytes, over the limit of 1 MiB")
        }
        if let bad = UTF8Check.firstInvalid(p, n) {
            return reject(.badEncoding, "invalid UTF-8 at byte \(bad + 1)")
        }
        JSONScan.skipWS(p, &i, n)
        if i >= n { return invalid(i, n) }
        if p[i] != 0x7B {
            let kind: Kind
            switch p[i] {
            case 0x22: kind = .string
            case 0x5B: kind = .array
            case 0x6E: kind = .null
            case 0x74, 0x66: kind = .bool
            default: kind = .number
            }
            var e = JSONScan.value(p, i, n, stack: &stack)
            if e < 0 { return invalid(i, n) }
            JSONScan.skipWS(p, &e, n)
            if e != n { return invalid(e, n) }
            return reject(.notObject, "the line is \(kindName(kind)), not an object")
        }
        var seen = 0
        i += 1
        JSONScan.skipWS(p, &i, n)
        if i < n && p[i] == 0x7D {
            i += 1
        } else {
            while true {
                if i >= n || p[i] != 0x22 { return invalid(i, n) }
                let ks = i + 1
                var mask = 0
                var ke = -1
                if ks + 8 <= n {
                    let w = UnsafeRawPointer(p + ks).loadUnaligned(as: UInt64.self)
                    var f = 0
                    while f < 5 {
                        let m = keyQuotedMask[f]
                        if m != 0 && w & m == keyQuoted[f] {
                            mask |= 1 << f
                            ke = ks + keyLen[f] + 1
                            if !sharedKeys { break }
                        }
                        f += 1
                    }
                }
                if ke < 0 {
                    var kesc = false
                    ke = JSONScan.string(p, ks, n, hasEscape: &kesc)
                    if ke < 0 { return invalid(i, n) }
                    mask = kesc ? matchEscapedKey(p, ks, ke - 1) : matchKey(p, ks, ke - 1, n)
                }
                i = ke
                JSONScan.skipWS(p, &i, n)
                if i >= n || p[i] != 0x3A { return invalid(i, n) }
                i += 1
                JSONScan.skipWS(p, &i, n)
                if i >= n { return invalid(i, n) }
                let vs = i
                var flag = false
                var measure = JSONNumber.Measure()
                let kind: Kind
                switch p[i] {
                case 0x22:
                    kind = .string
                    i = JSONScan.string(p, i + 1, n, hasEscape: &flag)
                case 0x2D, 0x30...0x39:
                    kind = .number
                    i = JSONNumber.scanMeasured(p, i, n, isInteger: &flag, measure: &measure)
                case 0x74, 0x66:
                    kind = .bool
                    i = JSONScan.literal(p, i, n)
                case 0x6E:
                    kind = .null
                    i = JSONScan.literal(p, i, n)
                case 0x7B:
                    kind = .object
                    i = JSONScan.value(p, i, n, stack: &stack)
                case 0x5B:
                    kind = .array
                    i = JSONScan.value(p, i, n, stack: &stack)
                default:
                    return invalid(i, n)
                }
                if i < 0 { return invalid(vs, n) }
                if mask != 0 {
                    seen |= mask
                    let slot = Slot(kind: kind, start: vs, end: i, flag: flag, measure: measure)
                    var rest = mask
                    repeat {
                        slots[rest.trailingZeroBitCount] = slot
                        rest &= rest &- 1
                    } while rest != 0
                }
                JSONScan.skipWS(p, &i, n)
                if i >= n { return invalid(i, n) }
                if p[i] == 0x2C {
                    i += 1
                    JSONScan.skipWS(p, &i, n)
                    continue
                }
                if p[i] == 0x7D {
                    i += 1
                    break
                }
                return invalid(i, n)
            }
        }
        JSONScan.skipWS(p, &i, n)
        if i != n { return invalid(i, n) }
        return checkFields(p, seen)
    }

    /// Applies the field rules in order user, ts, lat, lon, accuracy.
    private func checkFields(_ p: UnsafePointer<UInt8>, _ seen: Int) -> Status {
        var f = 0
        while f < 5 {
            if seen & (1 << f) == 0 { slots[f] = Slot() }
            f += 1
        }
        // user
        let u = slots[0]
        switch u.kind {
        case .missing:
            return reject(.missingField, "missing field \(name(0))")
        case .string:
            let s = u.start + 1, e = u.end - 1
            if u.flag {
                let user = buffers.user(atLeast: e - s)
                var lone = false
                userLen = JSONScan.decode(p, s, e, into: user, loneSurrogate: &lone)
                userPtr = UnsafePointer(user)
                if lone { return reject(.badEncoding, "field \(name(0)) holds a lone surrogate escape") }
            } else {
                userPtr = p + s
                userLen = e - s
            }
            if userLen == 0 { return reject(.missingField, "field \(name(0)) is empty") }
        case .number:
            if !u.flag {
                return reject(.badType, "field \(name(0)) is \(text(p, u)), expected a string or an integer")
            }
            userPtr = p + u.start
            userLen = u.end - u.start
        default:
            return reject(.badType, "field \(name(0)) is \(kindName(u.kind)), expected a string or an integer")
        }
        // ts
        let t = slots[1]
        let time: Int64
        switch t.kind {
        case .missing:
            return reject(.missingField, "missing field \(name(1))")
        case .string:
            let s = t.start + 1, e = t.end - 1
            var parsed: Int64?
            if t.flag {
                let decoded = buffers.tmp(atLeast: e - s)
                var lone = false
                let len = JSONScan.decode(p, s, e, into: decoded, loneSurrogate: &lone)
                parsed = lone ? nil : RFC3339.parse(UnsafePointer(decoded), 0, len, offsetRequired: true)
            } else {
                parsed = RFC3339.parse(p, s, e, offsetRequired: true, cache: &dateCache)
            }
            guard let v = parsed else {
                return reject(.badTimestamp, "field \(name(1)) is \(text(p, t)), not an RFC 3339 timestamp with offset in years 0001-9999")
            }
            time = v
        case .number:
            guard let v = JSONNumber.scaledInteger(p, t.start, t.end, scale: epochScale),
                  v >= RFC3339.minMilliseconds, v <= RFC3339.maxMilliseconds else {
                return reject(.badTimestamp, "field \(name(1)) is \(text(p, t)) \(fields.epochUnit.noun), outside years 0001-9999")
            }
            time = v
        default:
            return reject(.badType, "field \(name(1)) is \(kindName(t.kind)), expected a string or a number")
        }
        // lat, lon
        var coord: (Double, Double) = (0, 0)
        f = 2
        while f <= 3 {
            let c = slots[f]
            switch c.kind {
            case .missing:
                return reject(.missingField, "missing field \(name(f))")
            case .number:
                let v = JSONNumber.double(c.measure, p, c.start, c.end)
                let limit: Double = f == 2 ? 90 : 180
                if !(v >= -limit && v <= limit) {
                    return reject(.outOfRange, "field \(name(f)) is \(text(p, c)), outside [\(-Int(limit)), \(Int(limit))]")
                }
                if f == 2 { coord.0 = v } else { coord.1 = v }
            default:
                return reject(.badType, "field \(name(f)) is \(kindName(c.kind)), expected a number")
            }
            f += 1
        }
        // accuracy
        let a = slots[4]
        var accuracy = Double.nan
        switch a.kind {
        case .missing, .null:
            break
        case .number:
            let v = JSONNumber.double(a.measure, p, a.start, a.end)
            if !(v >= 0) {
                return reject(.outOfRange, "field \(name(4)) is \(text(p, a)), expected a number >= 0")
            }
            accuracy = v
        default:
            return reject(.badType, "field \(name(4)) is \(kindName(a.kind)), expected a number or null")
        }
        fix = Fix(time: time, lat: coord.0, lon: coord.1, accuracy: accuracy)
        return .accepted
    }
}
