extension JSONLineParser {
    /// The bytes that open one member in the common line shape: `{"key":` for the first field,
    /// `,"key":` for the others, compared with two 8-byte loads (the second overlapping the first
    /// when the prefix is longer than 8 bytes, unused when it is shorter; a shorter prefix of a
    /// later member is read with the bytes before it, masked off).
    struct MemberPrefix {
        var w0: UInt64 = 0
        var m0: UInt64 = 0
        var w1: UInt64 = 0
        var m1: UInt64 = 0
        /// Offsets of the two loads from the prefix's start.
        var off0 = 0
        var off1 = 0
        /// Length of the prefix in bytes.
        var len = 0
        /// Bytes from the prefix's start to the end of what the loads read.
        var need = 0

        init() {}

        /// The prefix of `key`, or nil when the key is not plain printable ASCII (no quote, no
        /// backslash) or the prefix is longer than 16 bytes.
        init?(key: [UInt8], first: Bool) {
            guard key.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return nil }
            let bytes: [UInt8] = [first ? 0x7B : 0x2C, 0x22] + key + [0x22, 0x3A]
            guard bytes.count <= 16 else { return nil }
            func word(_ from: Int, _ count: Int) -> UInt64 {
                var w: UInt64 = 0
                for j in 0..<count { w |= UInt64(bytes[from + j]) << (8 * UInt64(j)) }
                return w
            }
            len = bytes.count
            if len >= 8 {
                w0 = word(0, 8)
                m0 = ~0
                off1 = len - 8
                w1 = word(off1, 8)
                m1 = ~0
            } else if first {
                // Read from the line's start: the prefix in the low bytes of the word.
                w0 = word(0, len)
                m0 = (1 << (8 * UInt64(len))) &- 1
            } else {
                // Read the word that ends with the prefix (a later member starts at least 6
                // bytes into the line, and `off0` is at least -3): the prefix in the high bytes.
                off0 = len - 8
                off1 = off0
                w0 = word(0, len) << (8 * UInt64(8 - len))
                m0 = ~0 << (8 * UInt64(8 - len))
            }
            need = max(len, off0 + 8, off1 + 8)
        }

        /// Whether the prefix is at `raw[i...]` (reading only bytes before `n`).
        @inline(__always)
        func matches(_ raw: UnsafeRawPointer, _ i: Int, _ n: Int) -> Bool {
            i &+ need <= n
                && raw.loadUnaligned(fromByteOffset: i &+ off0, as: UInt64.self) & m0 == w0
                && raw.loadUnaligned(fromByteOffset: i &+ off1, as: UInt64.self) & m1 == w1
        }
    }
}
