extension JSONTape {
    /// A member name prepared once for many lookups (`member(_:_:)`): its UTF-8 bytes, the
    /// first 8 of them as one word, and whether it is plain ASCII. A GeoJSON import looks up
    /// the same seven names in each of its features; preparing the name took about half of
    /// each lookup.
    struct Key {
        /// The name.
        let text: String
        let utf8: [UInt8]
        let isASCII: Bool
        /// The first 8 bytes (fewer when the name is shorter), the first in the low byte.
        let head: UInt64

        init(_ text: String) {
            self.text = text
            utf8 = Array(text.utf8)
            isASCII = utf8.allSatisfy { $0 < 0x80 }
            var h: UInt64 = 0
            for (k, b) in utf8.prefix(8).enumerated() { h |= UInt64(b) << UInt64(8 * k) }
            head = h
        }
    }

    /// The value node of the first member of object node `index` named `key`, as
    /// `member(_:_:)` with the name as a string finds it.
    /// - Complexity: O(members before it), one word compared per name of up to 8 bytes.
    func member(_ index: Int, _ key: Key) -> Int? {
        let t = nodes
        guard t[index].kind == .object else { return nil }
        var k = index + 1
        for _ in 0..<Int(t[index].size) {
            let name = t[k]
            let v = next(k)
            if name.kind != .escapedString, Int(name.size) == key.utf8.count, sameBytes(Int(name.offset) + 1, key) { return v }
            // Different bytes may still be equal strings (escapes, canonical equivalence),
            // unless both sides are plain ASCII.
            if !(key.isASCII && name.kind == .asciiString), string(k) == key.text { return v }
            k = next(v)
        }
        return nil
    }

    /// Whether the text at byte `from` starts with `key`'s bytes.
    @inline(__always)
    private func sameBytes(_ from: Int, _ key: Key) -> Bool {
        let n = key.utf8.count
        if n <= 8, from + 8 <= bytes.count, let p = bytes.baseAddress {
            let word = UnsafeRawPointer(p + from).loadUnaligned(as: UInt64.self).littleEndian
            let mask: UInt64 = n == 8 ? .max : (1 << UInt64(8 * n)) - 1
            return word & mask == key.head
        }
        guard from + n <= bytes.count else { return false }
        for j in 0..<n where bytes[from + j] != key.utf8[j] { return false }
        return true
    }
}
