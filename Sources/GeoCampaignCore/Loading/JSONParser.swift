/// A strict RFC 8259 parser that builds a `JSONDocument` tape; every value's line and column
/// (1-based, in characters) can be had from it. Nesting is bounded, so hostile files cannot
/// exhaust the stack.
struct JSONParser {
    /// Deepest nesting accepted.
    static let maxDepth = 64

    private let bytes: FileBytes

    init(bytes: [UInt8]) {
        self.bytes = FileBytes(bytes)
    }

    /// A parser over bytes that the document it builds shares (no copy).
    init(bytes: FileBytes) {
        self.bytes = bytes
    }

    /// Parses the whole text as one JSON value and returns the root.
    mutating func parse() throws(YAMLProblem) -> JSONNode {
        JSONNode(document: try document(), index: 0)
    }

    /// Parses the whole text as one JSON value.
    /// - Complexity: O(bytes), one tape node per value.
    func document() throws(YAMLProblem) -> JSONDocument {
        var tape = Tape(b: bytes.buffer)
        do throws(YAMLProblem) {
            try tape.run()
            return JSONDocument(bytes: bytes, nodes: tape.takeNodes(), capacity: tape.capacity, lineStarts: tape.lineStarts)
        } catch {
            NodeMemory.free(tape.takeNodes().baseAddress.unsafelyUnwrapped, capacity: tape.capacity)
            throw error
        }
    }

    /// The one-pass builder over the bytes.
    private struct Tape {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The nodes so far, in memory the tape owns, handed to the document without a copy.
        private var base: UnsafeMutablePointer<JSONTape.Node>
        private(set) var capacity: Int
        private(set) var count = 0
        var lineStarts: [Int32] = [0]

        init(b: UnsafeBufferPointer<UInt8>) {
            self.b = b
            capacity = b.count / 8 + 16
            base = NodeMemory.allocate(capacity)
        }

        /// The nodes built, owned by the caller from now on.
        func takeNodes() -> UnsafeMutableBufferPointer<JSONTape.Node> {
            UnsafeMutableBufferPointer(start: base, count: count)
        }

        private mutating func grow() {
            let bigger = capacity * 2
            let fresh = NodeMemory.allocate(bigger)
            fresh.moveInitialize(from: base, count: count)
            NodeMemory.free(base, capacity: capacity)
            base = fresh
            capacity = bigger
        }

        mutating func run() throws(YAMLProblem) {
            if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
                i = 3
                lineStarts[0] = 3
            }
            skipSpace()
            try value(depth: 0)
            skipSpace()
            if i < b.count { throw problem("unexpected text after the end of the JSON value") }
        }

        /// A problem at byte `i`; every line break before it has been recorded.
        func problem(_ message: String) -> YAMLProblem {
            let start = Int(lineStarts[lineStarts.count - 1])
            var column = 1
            var k = start
            while k < i && k < b.count {
                if b[k] & 0xC0 != 0x80 { column += 1 }
                k += 1
            }
            return YAMLProblem(mark: SourceMark(line: lineStarts.count, column: column), message: message)
        }

        @inline(__always)
        mutating func skipSpace() {
            while i < b.count {
                switch b[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A:
                    i += 1
                    lineStarts.append(Int32(i))
                default: return
                }
            }
        }

        @inline(__always)
        mutating func add(_ kind: JSONTape.Kind, _ offset: Int, size: Int = 0, number: Double = 0) {
            if count == capacity { grow() }
            (base + count).initialize(to: JSONTape.Node(kind: kind, offset: offset, size: size, next: count + 1, number: number))
            count += 1
        }

        /// Sets the child count and end of container node `k` once its last child is read.
        mutating func close(_ k: Int, children: Int) {
            base[k].close(size: children, next: count)
        }

        /// Array node `k` just closed: when it is two numbers, it becomes one position node and
        /// its two number nodes are dropped.
        mutating func closePosition(_ k: Int) {
            guard count == k + 3, base[k + 1].kind == .number, base[k + 2].kind == .number else { return }
            base[k] = JSONTape.Node(offset: base[k].offset, longitude: base[k + 1].number, latitude: base[k + 2].number)
            count = k + 1
        }

        mutating func value(depth: Int) throws(YAMLProblem) {
            guard i < b.count else { throw problem("the JSON text ends where a value was expected") }
            let start = i
            switch b[i] {
            case 0x7B:
                guard depth < JSONParser.maxDepth else { throw problem("the JSON is nested more than \(JSONParser.maxDepth) levels deep") }
                let me = count
                add(.object, start)
                i += 1
                skipSpace()
                if i < b.count, b[i] == 0x7D {
                    i += 1
                    return
                }
                var items = 0
                while true {
                    skipSpace()
                    guard i < b.count, b[i] == 0x22 else { throw problem("expected a quoted member name") }
                    try string()
                    skipSpace()
                    guard i < b.count, b[i] == 0x3A else { throw problem("expected ':' after the member name") }
                    i += 1
                    skipSpace()
                    try value(depth: depth + 1)
                    items += 1
                    skipSpace()
                    guard i < b.count else { throw problem("the JSON text ends inside an object: add the closing '}'") }
                    if b[i] == 0x2C {
                        i += 1
                        continue
                    }
                    if b[i] == 0x7D {
                        i += 1
                        close(me, children: items)
                        return
                    }
                    throw problem("expected ',' or '}' in an object")
                }
            case 0x5B:
                guard depth < JSONParser.maxDepth else { throw problem("the JSON is nested more than \(JSONParser.maxDepth) levels deep") }
                let me = count
                add(.array, start)
                i += 1
                skipSpace()
                if i < b.count, b[i] == 0x5D {
                    i += 1
                    return
                }
                var items = 0
                while true {
                    skipSpace()
                    // Numbers (most items of GeoJSON arrays) skip the general dispatch.
                    if i < b.count, b[i] == 0x2D || (b[i] >= 0x30 && b[i] <= 0x39) {
                        try number()
                    } else {
                        try value(depth: depth + 1)
                    }
                    items += 1
                    skipSpace()
                    guard i < b.count else { throw problem("the JSON text ends inside an array: add the closing ']'") }
                    if b[i] == 0x2C {
                        i += 1
                        continue
                    }
                    if b[i] == 0x5D {
                        i += 1
                        close(me, children: items)
                        if items == 2 { closePosition(me) }
                        return
                    }
                    throw problem("expected ',' or ']' in an array")
                }
            case 0x22:
                try string()
            case 0x74:
                try literal(0x74, 0x72, 0x75, 0x65)
                add(.true, start)
            case 0x66:
                try literal(0x66, 0x61, 0x6C, 0x73, 0x65)
                add(.false, start)
            case 0x6E:
                try literal(0x6E, 0x75, 0x6C, 0x6C)
                add(.null, start)
            default:
                try number()
            }
        }

        mutating func literal(_ word: UInt8...) throws(YAMLProblem) {
            guard i + word.count <= b.count, word.indices.allSatisfy({ b[i + $0] == word[$0] }) else {
                throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
            }
            i += word.count
        }

        /// Reads a number. Without an exponent, with at most 19 digits (so the integer of its
        /// digits does not overflow), that integer at most 2^53 (so exactly a double) and at most
        /// 22 digits after the point, its value is that integer divided by an exact power of ten,
        /// computed in the same pass: one correctly rounded IEEE operation, so the same double as
        /// `Double(text)` (Clinger's fast path). Other numbers go through `Double(text)`. The scan
        /// works on a local index and counts digits by position, not one by one.
        mutating func number() throws(YAMLProblem) {
            let start = i
            let n = b.count
            var j = i
            var negative = false
            if j < n, b[j] == 0x2D {
                negative = true
                j += 1
            }
            guard j < n, b[j] &- 0x30 <= 9 else {
                i = j
                throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
            }
            var mantissa: UInt64 = 0
            let intStart = j
            if b[j] == 0x30 {
                j += 1
            } else {
                while j < n {
                    let d = b[j] &- 0x30
                    if d > 9 { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    j += 1
                }
            }
            var digitCount = j - intStart
            var fraction = 0
            if j < n, b[j] == 0x2E {
                j += 1
                let fractionStart = j
                while j < n {
                    let d = b[j] &- 0x30
                    if d > 9 { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    j += 1
                }
                fraction = j - fractionStart
                guard fraction > 0 else {
                    i = j
                    throw problem("a number needs digits after the decimal point")
                }
                digitCount += fraction
            }
            var exponent = false
            if j < n, b[j] == 0x65 || b[j] == 0x45 {
                exponent = true
                j += 1
                if j < n, b[j] == 0x2B || b[j] == 0x2D { j += 1 }
                let exponentStart = j
                while j < n, b[j] &- 0x30 <= 9 { j += 1 }
                guard j > exponentStart else {
                    i = j
                    throw problem("a number needs digits in its exponent")
                }
            }
            i = j
            if !exponent && digitCount <= 19 && fraction <= 22 && mantissa <= 1 << 53 {
                let v = Double(mantissa) / JSONParser.pow10[fraction]
                add(.number, start, size: j - start, number: negative ? -v : v)
                return
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { throw problem("a number is too large (beyond 1.8e308)") }
            add(.number, start, size: j - start, number: d)
        }

        mutating func hex4() throws(YAMLProblem) -> UInt32 {
            guard i + 4 <= b.count else { throw problem("a \\u escape needs 4 hex digits") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = b[i]
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

        /// Checks a string starting at its quote and adds its node; the text is decoded only
        /// when asked for.
        mutating func string() throws(YAMLProblem) {
            let quote = i
            i += 1
            let from = i
            // Fast path: plain bytes up to the closing quote.
            var high: UInt8 = 0
            while i < b.count {
                let c = b[i]
                if c == 0x22 {
                    add(high < 0x80 ? .asciiString : .string, quote, size: i - from)
                    i += 1
                    return
                }
                if c == 0x5C || c < 0x20 { break }
                high |= c
                i += 1
            }
            var escaped = false
            while true {
                guard i < b.count else { throw problem("a string is never closed: add the closing '\"'") }
                let c = b[i]
                if c == 0x22 { break }
                if c < 0x20 { throw problem("a control character (such as a line break) inside a string: write it as an escape like \\n") }
                i += 1
                if c != 0x5C { continue }
                escaped = true
                guard i < b.count else { throw problem("a string is never closed: add the closing '\"'") }
                let e = b[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: break
                case 0x75:
                    let u = try hex4()
                    if (0xD800...0xDBFF).contains(u), i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 {
                        i += 2
                        _ = try hex4()
                    }
                default:
                    throw problem("unknown escape in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
                }
            }
            add(escaped ? .escapedString : .string, quote, size: i - from)
            i += 1
        }
    }

    /// Exact powers of ten representable as doubles.
    private static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
