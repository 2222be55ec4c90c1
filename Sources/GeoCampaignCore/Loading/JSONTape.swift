import Foundation

/// The bytes of a JSON text and its values as a flat array of nodes in document order: a plain
/// view (two pointers, no reference counting, so that threads decoding parts of one document do
/// not contend on a shared count), valid while the `JSONDocument` that owns the memory lives.
/// Strings and numbers' text are decoded from the bytes when asked for.
struct JSONTape: @unchecked Sendable {
    /// What a node is.
    enum Kind: UInt8 {
        /// Strings: `asciiString` holds only ASCII bytes and no escape, `string` no escape.
        /// `position`: an array of exactly two numbers (a GeoJSON position), kept as one node
        /// with both values and no child nodes (two thirds of a GeoJSON file's nodes otherwise).
        case object, array, asciiString, string, escapedString, number, `true`, `false`, null, position
    }

    /// One value of the tape. An object's children are its members' names (string nodes) and
    /// values, alternating; an array's children are its items. Children follow their parent.
    /// A position has no child nodes: its numbers are its longitude and latitude.
    struct Node {
        /// The value of a number; a position's first number (longitude).
        var number: Double
        /// A position: the bits of its second number (latitude). Other nodes: `size` in the low
        /// 32 bits (objects: member count; arrays: item count; strings: bytes between the
        /// quotes; numbers: bytes of their text) and in the high 32 bits the index of the node
        /// just past this node's subtree (its next sibling).
        var packed: UInt64
        /// Byte offset where the value starts (a string's opening quote).
        var offset: Int32
        /// What the value is.
        var kind: Kind

        init(kind: Kind, offset: Int, size: Int, next: Int, number: Double) {
            self.number = number
            packed = UInt64(UInt32(truncatingIfNeeded: size)) | UInt64(UInt32(truncatingIfNeeded: next)) << 32
            self.offset = Int32(truncatingIfNeeded: offset)
            self.kind = kind
        }

        /// A position node.
        init(offset: Int32, longitude: Double, latitude: Double) {
            number = longitude
            packed = latitude.bitPattern
            self.offset = offset
            kind = .position
        }

        /// Members, items (2 for a position), or bytes of a string's body or a number's text.
        var size: Int { kind == .position ? 2 : Int(UInt32(truncatingIfNeeded: packed)) }

        /// A position's latitude.
        var latitude: Double { Double(bitPattern: packed) }

        /// Moves the index just past this node's subtree by `delta` (not for a position).
        mutating func shiftNext(by delta: Int) {
            packed = (packed & 0xFFFF_FFFF) | UInt64(UInt32(truncatingIfNeeded: Int(packed >> 32) + delta)) << 32
        }

        /// Sets a container's child count and the index just past its subtree.
        mutating func close(size: Int, next: Int) {
            packed = UInt64(UInt32(truncatingIfNeeded: size)) | UInt64(UInt32(truncatingIfNeeded: next)) << 32
        }
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
    /// a high surrogate followed by an escape that is not a low one, becomes one U+FFFD. The
    /// bytes are read again here: an import's bytes are a mapping of its file (`MappedFile`),
    /// which another program may write while it is parsed, so what is not a valid escape any
    /// more (a `\` at the end, `\u` without 4 hex digits) becomes U+FFFD, never a trap (the load
    /// then reports the file as changed).
    private static func unescape(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> [UInt8] {
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= to else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = p[k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c &- 0x30)
                case 0x41...0x46: d = UInt32(c &- 0x41) + 10
                case 0x61...0x66: d = UInt32(c &- 0x61) + 10
                default: return nil
                }
                v = v &* 16 &+ d
            }
            return v
        }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
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
            guard i + 1 < to else {
                out.append(contentsOf: replacement)
                break
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
                guard var u = hex4(i) else {
                    out.append(contentsOf: replacement)
                    continue
                }
                i += 4
                if (0xD800...0xDBFF).contains(u), i + 1 < to, p[i] == 0x5C, p[i + 1] == 0x75 {
                    guard let low = hex4(i + 2) else {
                        out.append(contentsOf: replacement)
                        continue
                    }
                    i += 6
                    u = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: (Unicode.Scalar(u) ?? "\u{FFFD}").utf8)
            default: out.append(e)
            }
        }
        return out
    }

    /// The index of the node just past node `index`'s subtree (its next sibling).
    @inline(__always)
    func next(_ index: Int) -> Int { Self.next(nodes, index) }

    @inline(__always)
    private static func next(_ t: UnsafeBufferPointer<Node>, _ index: Int) -> Int {
        let n = t[index]
        return n.kind == .position ? index + 1 : Int(n.packed >> 32)
    }

    /// The text of a number written at bytes `from ..< from + length`.
    func numberText(from: Int, length: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<(from + length)]), as: UTF8.self)
    }

    /// The text of a number as an id or name: an integer without a fraction or exponent as its
    /// decimal digits (`1e21` is `1000000000000000000000`, not `1e+21`), else its text as written
    /// (`JSONNode.decimalText` of it when it has an exponent).
    func text(number d: Double, writtenAt offset: Int, length: Int) -> String {
        if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
        let t = numberText(from: offset, length: length)
        return t.contains("e") || t.contains("E") ? (JSONNode.decimalText(t) ?? t) : t
    }

    /// Where number `part` (0: the first, the longitude; 1: the second) of position node
    /// `index` is written: its byte offset and length, found from the position's opening
    /// bracket (the parser checked the syntax).
    func positionNumber(_ index: Int, _ part: Int) -> (offset: Int, length: Int) {
        let b = bytes
        var k = Int(nodes[index].offset) + 1
        func skipSpace() {
            while k < b.count, b[k] == 0x20 || b[k] == 0x09 || b[k] == 0x0A || b[k] == 0x0D { k += 1 }
        }
        func numberEnd() -> Int {
            var j = k
            while j < b.count, (b[j] &- 0x30 <= 9) || b[j] == 0x2D || b[j] == 0x2B || b[j] == 0x2E || b[j] | 0x20 == 0x65 { j += 1 }
            return j
        }
        skipSpace()
        if part == 1 {
            k = numberEnd()
            skipSpace()
            k += 1
            skipSpace()
        }
        return (k, numberEnd() - k)
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
                let v = Self.next(t, k)
                if name.kind != .escapedString, Int(name.size) == kb.count, Self.sameBytes(p, Int(name.offset) + 1, kb) { return v }
                // Different bytes may still be equal strings (escapes, canonical equivalence),
                // unless both sides are plain ASCII.
                if !(keyASCII && name.kind == .asciiString), string(k) == wanted { return v }
                k = Self.next(t, v)
            }
            return nil
        }
    }

    /// Whether string node `k` is the member name `key`, as `member` compares names.
    func isName(_ k: Int, _ key: String) -> Bool {
        let wanted = key
        var key = key
        return key.withUTF8 { kb in
            var keyASCII = true
            for c in kb where c >= 0x80 {
                keyASCII = false
                break
            }
            let name = nodes[k]
            if name.kind != .escapedString, Int(name.size) == kb.count, Self.sameBytes(bytes, Int(name.offset) + 1, kb) { return true }
            return !(keyASCII && name.kind == .asciiString) && string(k) == wanted
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
            c = next(c)
        }
        return out
    }

    /// Index of item `k` of array node `index`.
    func item(_ index: Int, _ k: Int) -> Int {
        var c = index + 1
        for _ in 0..<k { c = next(c) }
        return c
    }

    /// The position `[longitude, latitude, ...]` that node `index` is, if it is one.
    func position(_ index: Int) -> Coordinate? {
        Self.position(nodes, index)
    }

    private static func position(_ t: UnsafeBufferPointer<Node>, _ c: Int) -> Coordinate? {
        let p = t[c]
        if p.kind == .position { return Coordinate(lat: p.latitude, lon: p.number) }
        guard p.kind == .array, p.size >= 2 else { return nil }
        let lon = t[c + 1]
        let lat = t[next(t, c + 1)]
        guard lon.kind == .number, lat.kind == .number else { return nil }
        return Coordinate(lat: lat.number, lon: lon.number)
    }

    /// The `[longitude, latitude]` positions of array node `index` (a position's further members
    /// are ignored), or nil when it is not an array of positions.
    /// - Complexity: O(nodes of the ring), no allocation but the result.
    func positions(_ index: Int) -> [Coordinate]? {
        var out: [Coordinate] = []
        return positions(index, into: &out) ? out : nil
    }

    /// Appends the positions of array node `index` to `out` (as `positions`); false when it is
    /// not an array of positions (`out` may then hold some).
    func positions(_ index: Int, into out: inout [Coordinate]) -> Bool {
        let t = nodes
        let ring = t[index]
        guard ring.kind == .array else { return false }
        out.reserveCapacity(out.count + ring.size)
        var c = index + 1
        for _ in 0..<ring.size {
            let node = t[c]
            // Position nodes (nearly every item) are read in place; other items as `position`.
            if node.kind == .position {
                out.append(Coordinate(lat: node.latitude, lon: node.number))
                c += 1
                continue
            }
            guard let p = Self.position(t, c) else { return false }
            out.append(p)
            c = Self.next(t, c)
        }
        return true
    }
}

/// Memory for tape nodes, mapped from the system directly (not through malloc), so that the
/// pages of nodes no longer needed can be given back while the others are still read: the
/// nodes of a part parsed ahead, once moved down to their place (`release`).
enum NodeMemory {
    private static func bytes(_ capacity: Int) -> Int { max(1, capacity) * MemoryLayout<JSONTape.Node>.stride }

    /// Room for `capacity` nodes, uninitialized (zero pages until written), or nil when the
    /// system gives no such mapping (`failureMessage` says why, for the caller's diagnostic).
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<JSONTape.Node>? {
        guard let p = mmap(nil, bytes(capacity), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else {
            return nil
        }
        HugePages.advise(p, bytes: bytes(capacity))
        return p.bindMemory(to: JSONTape.Node.self, capacity: max(1, capacity))
    }

    /// The message of a failed `allocate(capacity)`.
    static func failureMessage(_ capacity: Int) -> String {
        "out of memory: \(bytes(capacity)) bytes for the parsed JSON document could not be mapped (\(String(cString: strerror(errno))))"
    }

    /// Unmaps memory from `allocate(capacity)`.
    static func free(_ p: UnsafeMutablePointer<JSONTape.Node>, capacity: Int) {
        munmap(UnsafeMutableRawPointer(p), bytes(capacity))
    }

    /// Gives back the whole pages within nodes `range` of `p`; those nodes must not be read
    /// again (they would read as zero bytes). Nodes sharing a page with others stay.
    static func release(_ p: UnsafeMutablePointer<JSONTape.Node>, _ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let stride = MemoryLayout<JSONTape.Node>.stride
        let base = Int(bitPattern: UnsafeMutableRawPointer(p))
        let from = (base + range.lowerBound * stride + page - 1) / page * page
        let to = (base + range.upperBound * stride) / page * page
        guard to > from, let start = UnsafeMutableRawPointer(bitPattern: from) else { return }
        _ = madvise(start, to - from, Int32(MADV_DONTNEED))
    }
}
