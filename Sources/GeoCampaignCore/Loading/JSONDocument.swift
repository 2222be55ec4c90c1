import Foundation

/// A parsed JSON text kept as its bytes and a flat tape of nodes in document order, built in one
/// pass without an allocation per value. Strings are decoded and positions (line, column) are
/// computed only when asked for, from the bytes.
final class JSONDocument: @unchecked Sendable {
    /// What a node is.
    enum Kind: UInt8 {
        case object, array, string, escapedString, number, `true`, `false`, null
    }

    /// One value of the tape. An object's children are its members' names (string nodes) and
    /// values, alternating; an array's children are its items. Children follow their parent.
    struct Node {
        /// The value of a number.
        var number: Double
        /// Byte offset where the value starts (a string's opening quote).
        var offset: Int32
        /// Objects: member count; arrays: item count; strings: bytes between the quotes;
        /// numbers: bytes of their text.
        var size: Int32
        /// Index of the node just past this node's subtree (its next sibling).
        var next: Int32
        var kind: Kind
    }

    /// The text as read (owned, freed with the document: reading it costs no reference counting,
    /// so that threads decoding parts of one document do not contend on a shared count).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The tape; node 0 is the root (owned like `bytes`).
    let nodes: UnsafeBufferPointer<Node>
    /// Byte offset of the first column of each line (lines end at LF; line 1 starts after a BOM).
    private let lineStarts: [Int32]
    /// Characters (UTF-8 lead bytes) before each 1 KiB block, built on the first mark that needs
    /// it (a long line); guarded by `lock`.
    private var blockChars: [Int32]?
    private let lock = NSLock()

    private static let blockShift = 10

    /// A document over a copy of `bytes`, owning `nodes` (allocated by the parser).
    init(bytes: UnsafeBufferPointer<UInt8>, nodes: UnsafeMutableBufferPointer<Node>, lineStarts: [Int32]) {
        let b = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = b.initialize(from: bytes)
        self.bytes = UnsafeBufferPointer(b)
        self.nodes = UnsafeBufferPointer(nodes)
        self.lineStarts = lineStarts
    }

    deinit {
        bytes.deallocate()
        nodes.deallocate()
    }

    /// The line and column (1-based, the column in characters) of byte `offset`.
    /// - Complexity: O(log lines + min(line length, 2 KiB)); the first mark on a line longer than
    ///   that builds a table over the file once.
    func mark(atOffset offset: Int) -> SourceMark {
        var lo = 0, hi = lineStarts.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(lineStarts[mid]) <= offset { lo = mid } else { hi = mid }
        }
        let start = Int(lineStarts[lo])
        return SourceMark(line: lo + 1, column: characters(from: start, to: offset) + 1)
    }

    /// UTF-8 lead bytes in `bytes[from..<to]`.
    private func characters(from: Int, to: Int) -> Int {
        let end = min(to, bytes.count)
        guard end > from else { return 0 }
        if end - from <= 2 << Self.blockShift { return Self.leadBytes(bytes, from, end) }
        return prefixCharacters(end) - prefixCharacters(from)
    }

    /// UTF-8 lead bytes before byte `x`, through the block table.
    private func prefixCharacters(_ x: Int) -> Int {
        let table = blockTable()
        let block = x >> Self.blockShift
        return Int(table[block]) + Self.leadBytes(bytes, block << Self.blockShift, x)
    }

    private func blockTable() -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        if let t = blockChars { return t }
        let blockSize = 1 << Self.blockShift
        var t: [Int32] = [0]
        t.reserveCapacity(bytes.count / blockSize + 2)
        var total = 0
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + blockSize)
            total += Self.leadBytes(bytes, from, to)
            t.append(Int32(total))
            from = to
        }
        blockChars = t
        return t
    }

    /// Bytes in `b[from..<to]` that start a UTF-8 sequence (are not continuation bytes).
    static func leadBytes(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var n = 0
        var k = from
        while k < to {
            n &+= p[k] & 0xC0 != 0x80 ? 1 : 0
            k += 1
        }
        return n
    }

    /// The text of string node `index`, escapes decoded (invalid UTF-8 becomes U+FFFD).
    func string(_ index: Int) -> String {
        let n = nodes[index]
        let from = Int(n.offset) + 1, to = from + Int(n.size)
        if n.kind != .escapedString { return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) }
        return String(decoding: Self.unescape(bytes, from, to), as: UTF8.self)
    }

    /// The bytes of a validated string body with its escapes replaced; an unpaired surrogate, or
    /// a high surrogate followed by an escape that is not a low one, becomes one U+FFFD.
    private static func unescape(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> [UInt8] {
        func hex4(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = p[k]
                let d: UInt32 = c <= 0x39 ? UInt32(c - 0x30) : (c <= 0x46 ? UInt32(c - 0x41 + 10) : UInt32(c - 0x61 + 10))
                v = v * 16 + d
            }
            return v
        }
        var out: [UInt8] = []
        out.reserveCapacity(to - from)
        var i = from
        while i < to {
            let c = p[i]
            if c != 0x5C {
                out.append(c)
                i += 1
                continue
            }
            let e = p[i + 1]
            i += 2
            switch e {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var u = hex4(i)
                i += 4
                if (0xD800...0xDBFF).contains(u), i + 1 < to, p[i] == 0x5C, p[i + 1] == 0x75 {
                    let low = hex4(i + 2)
                    i += 6
                    u = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: (Unicode.Scalar(u) ?? "\u{FFFD}").utf8)
            default: out.append(e)
            }
        }
        return out
    }

    /// The text of number node `index` as written.
    func numberText(_ index: Int) -> String {
        let n = nodes[index]
        let from = Int(n.offset)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<(from + Int(n.size))]), as: UTF8.self)
    }

    /// The value node of the first member of object node `index` named `key` (names compare as
    /// Swift strings do: bytes first, decoded text when either side is not plain ASCII).
    func member(_ index: Int, _ key: String) -> Int? {
        guard nodes[index].kind == .object else { return nil }
        let wanted = key
        var key = key
        return key.withUTF8 { kb in
            let keyASCII = kb.allSatisfy { $0 < 0x80 }
            let p = bytes, t = nodes
            var k = index + 1
            for _ in 0..<Int(t[index].size) {
                let name = t[k]
                let from = Int(name.offset) + 1, len = Int(name.size)
                let v = Int(name.next)
                if name.kind == .string, len == kb.count, Self.sameBytes(p, from, kb) { return v }
                if !(keyASCII && name.kind == .string && Self.isASCII(p, from, from + len)), string(k) == wanted { return v }
                k = Int(t[v].next)
            }
            return nil
        }
    }

    private static func isASCII(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        var k = from
        while k < to {
            if p[k] >= 0x80 { return false }
            k += 1
        }
        return true
    }

    private static func sameBytes(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let a = p.baseAddress, let b = key.baseAddress else { return key.isEmpty }
        return memcmp(a + from, b, key.count) == 0
    }

    /// Indices of the children of array node `index` (or names and values of an object).
    func children(_ index: Int) -> [Int] {
        let n = nodes[index]
        let count = n.kind == .object ? 2 * Int(n.size) : (n.kind == .array ? Int(n.size) : 0)
        var out: [Int] = []
        out.reserveCapacity(count)
        var k = index + 1
        for _ in 0..<count {
            out.append(k)
            k = Int(nodes[k].next)
        }
        return out
    }

    /// Index of item `k` of array node `index`.
    func item(_ index: Int, _ k: Int) -> Int {
        var c = index + 1
        for _ in 0..<k { c = Int(nodes[c].next) }
        return c
    }

    /// The position `[longitude, latitude, ...]` that node `index` is, if it is one.
    func position(_ index: Int) -> Coordinate? {
        Self.position(nodes, index)
    }

    private static func position(_ t: UnsafeBufferPointer<Node>, _ c: Int) -> Coordinate? {
        let p = t[c]
        guard p.kind == .array, p.size >= 2 else { return nil }
        let lon = t[c + 1]
        let lat = t[Int(lon.next)]
        guard lon.kind == .number, lat.kind == .number else { return nil }
        return Coordinate(lat: lat.number, lon: lon.number)
    }

    /// The `[longitude, latitude]` positions of array node `index` (a position's further members
    /// are ignored), or nil when it is not an array of positions.
    /// - Complexity: O(nodes of the ring), no allocation but the result.
    func positions(_ index: Int) -> [Coordinate]? {
        let t = nodes
        let ring = t[index]
        guard ring.kind == .array else { return nil }
        var out: [Coordinate] = []
        out.reserveCapacity(Int(ring.size))
        var c = index + 1
        for _ in 0..<Int(ring.size) {
            guard let p = Self.position(t, c) else { return nil }
            out.append(p)
            c = Int(t[c].next)
        }
        return out
    }
}
