/// A strict RFC 8259 parser that records the line and column (1-based, in characters) of every
/// value. Nesting is bounded, so hostile files cannot exhaust the stack.
struct JSONParser {
    /// Deepest nesting accepted.
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    /// Column cache: the column of byte `cachePos` on the current line.
    private var cachePos = 0
    private var cacheCol = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses the whole text as one JSON value.
    mutating func parse() throws(YAMLProblem) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            i = 3
            lineStart = 3
        }
        skipSpace()
        let v = try value(depth: 0)
        skipSpace()
        if i < bytes.count { throw problem("unexpected text after the end of the JSON value") }
        return v
    }

    /// The position of byte `i`; amortized O(1) as `i` only grows within a line.
    private mutating func currentMark() -> SourceMark {
        if cachePos < lineStart || cachePos > i {
            cachePos = lineStart
            cacheCol = 1
        }
        while cachePos < i && cachePos < bytes.count {
            if bytes[cachePos] & 0xC0 != 0x80 { cacheCol += 1 }
            cachePos += 1
        }
        return SourceMark(line: line, column: cacheCol)
    }

    private mutating func problem(_ message: String) -> YAMLProblem {
        YAMLProblem(mark: currentMark(), message: message)
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(YAMLProblem) -> JSONNode {
        guard i < bytes.count else { throw problem("the JSON text ends where a value was expected") }
        let m = currentMark()
        switch bytes[i] {
        case 0x7B:
            guard depth < Self.maxDepth else { throw problem("the JSON is nested more than \(Self.maxDepth) levels deep") }
            i += 1
            skipSpace()
            var members: [(String, JSONNode)] = []
            if i < bytes.count, bytes[i] == 0x7D {
                i += 1
                return JSONNode(kind: .object(members), mark: m)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x22 else { throw problem("expected a quoted member name") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x3A else { throw problem("expected ':' after the member name") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw problem("the JSON text ends inside an object: add the closing '}'") }
                if bytes[i] == 0x2C {
                    i += 1
                    continue
                }
                if bytes[i] == 0x7D {
                    i += 1
                    return JSONNode(kind: .object(members), mark: m)
                }
                throw problem("expected ',' or '}' in an object")
            }
        case 0x5B:
            guard depth < Self.maxDepth else { throw problem("the JSON is nested more than \(Self.maxDepth) levels deep") }
            i += 1
            skipSpace()
            var items: [JSONNode] = []
            items.reserveCapacity(4)
            if i < bytes.count, bytes[i] == 0x5D {
                i += 1
                return JSONNode(kind: .array(items), mark: m)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw problem("the JSON text ends inside an array: add the closing ']'") }
                if bytes[i] == 0x2C {
                    i += 1
                    continue
                }
                if bytes[i] == 0x5D {
                    i += 1
                    return JSONNode(kind: .array(items), mark: m)
                }
                throw problem("expected ',' or ']' in an array")
            }
        case 0x22:
            return JSONNode(kind: .string(try string()), mark: m)
        case 0x74:
            try literal("true")
            return JSONNode(kind: .bool(true), mark: m)
        case 0x66:
            try literal("false")
            return JSONNode(kind: .bool(false), mark: m)
        case 0x6E:
            try literal("null")
            return JSONNode(kind: .null, mark: m)
        default:
            return try number(m)
        }
    }

    private mutating func literal(_ word: String) throws(YAMLProblem) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else {
            throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
        }
        i += w.count
    }

    private mutating func number(_ m: SourceMark) throws(YAMLProblem) -> JSONNode {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < bytes.count, bytes[i] == 0x2D { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else {
            throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
        }
        if bytes[i] == 0x30 {
            i += 1
        } else {
            _ = digits()
        }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            guard digits() > 0 else { throw problem("a number needs digits after the decimal point") }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard digits() > 0 else { throw problem("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if let d = Self.exactDouble(bytes, start, i) { return JSONNode(kind: .number(d, text), mark: m) }
        guard let d = Double(text), d.isFinite else { throw problem("the number \(text) is too large") }
        return JSONNode(kind: .number(d, text), mark: m)
    }

    /// Exact powers of ten representable as doubles.
    private static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The correctly rounded double of a validated number without exponent and with at most 15
    /// significant digits: its digits as an exact integer divided by an exact power of ten (one
    /// correctly rounded IEEE operation, so the same double as `Double(text)`); nil otherwise.
    static func exactDouble(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Double? {
        var i = start
        let negative = bytes[i] == 0x2D
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var fraction = 0
        var inFraction = false
        while i < end {
            let c = bytes[i]
            if c == 0x2E {
                inFraction = true
            } else if c >= 0x30 && c <= 0x39 {
                if inFraction { fraction += 1 }
                if mantissa != 0 || c != 0x30 { significant += 1 }
                if significant > 15 { return nil }
                mantissa = mantissa * 10 + UInt64(c - 0x30)
            } else {
                return nil
            }
            i += 1
        }
        guard fraction <= 22 else { return nil }
        let v = Double(mantissa) / pow10[fraction]
        return negative ? -v : v
    }

    private mutating func hex4() throws(YAMLProblem) -> UInt32 {
        guard i + 4 <= bytes.count else { throw problem("a \\u escape needs 4 hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw problem("a \\u escape needs 4 hex digits")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func string() throws(YAMLProblem) -> String {
        i += 1
        // Fast path: no escape before the closing quote; the text is the bytes as they are.
        let start = i
        var j = i
        while j < bytes.count {
            let c = bytes[j]
            if c == 0x22 {
                i = j + 1
                return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<j]), as: UTF8.self) }
            }
            if c == 0x5C || c < 0x20 { break }
            j += 1
        }
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw problem("a string is never closed: add the closing '\"'") }
            let c = bytes[i]
            if c == 0x22 {
                i += 1
                break
            }
            if c < 0x20 { throw problem("a control character (such as a line break) inside a string: write it as an escape like \\n") }
            if c != 0x5C {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw problem("a string is never closed: add the closing '\"'") }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var u = try hex4()
                if (0xD800...0xDBFF).contains(u), i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 {
                    i += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        u = 0xFFFD
                    }
                }
                let scalar = Unicode.Scalar(u) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw problem("unknown escape in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
