import Foundation

/// The bytes of a JSON text and its values as a flat array of nodes in document order: a plain
/// view (two pointers, no reference counting, so that threads decoding parts of one document do
/// not contend on a shared count), valid while the `JSONDocument` that owns the memory lives.
/// Strings and numbers' text are decoded from the bytes when asked for.
struct JSONTape: @unchecked Sendable {
    /// What a node is.
    enum Kind: UInt8 {
        /// Strings: `asciiString` holds only ASCII bytes and no escape, `string` no escape.
        case object, array, asciiString, string, escapedString, number, `true`, `false`, null
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
        /// What the value is.
        var kind: Kind
    }

    /// The text as read.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The nodes; node 0 is the root.
    let nodes: UnsafeBufferPointer<Node>

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
            var keyASCII = true
            for c in kb where c >= 0x80 {
                keyASCII = false
                break
            }
            let p = bytes, t = nodes
            var k = index + 1
            for _ in 0..<Int(t[index].size) {
                let name = t[k]
                let v = Int(name.next)
                if name.kind != .escapedString, Int(name.size) == kb.count, Self.sameBytes(p, Int(name.offset) + 1, kb) { return v }
                // Different bytes may still be equal strings (escapes, canonical equivalence),
                // unless both sides are plain ASCII.
                if !(keyASCII && name.kind == .asciiString), string(k) == wanted { return v }
                k = Int(t[v].next)
            }
            return nil
        }
    }

    private static func sameBytes(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        var j = 0
        while j < key.count {
            if p[from + j] != key[j] { return false }
            j += 1
        }
        return true
    }

    /// The items of array node `index` if they are all strings.
    func strings(_ index: Int) -> [String]? {
        let n = nodes[index]
        guard n.kind == .array else { return nil }
        var out: [String] = []
        out.reserveCapacity(Int(n.size))
        var c = index + 1
        for _ in 0..<Int(n.size) {
            let item = nodes[c]
            guard item.kind == .asciiString || item.kind == .string || item.kind == .escapedString else { return nil }
            out.append(string(c))
            c = Int(item.next)
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
