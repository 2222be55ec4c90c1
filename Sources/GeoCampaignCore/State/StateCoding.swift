/// Little-endian binary encoding of the state's records (user states), with bounds-checked
/// reading: a damaged record is an error value, never a crash. Numbers (counts, slots, indices)
/// are LEB128 variable-length integers; an instant is written as its difference to a nearby
/// one, zigzag-encoded (small negative differences stay small), with wrapping arithmetic so
/// that every Int64 round-trips.
///
/// A writer fills an array made at once with room for a bound of the record's size
/// (`bytes(bound:_:)`), through a pointer: appending byte by byte to an array checked the
/// array's uniqueness and capacity at every byte, which was most of a record's encoding.
/// Writing past the bound stops the program (a wrong bound is a bug, not bad input).
struct StateWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        capacity = buffer.count
    }

    /// The bytes that `body` writes, at most `bound` of them.
    static func bytes(bound: Int, _ body: (inout StateWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bound) { buffer, n in
            var w = StateWriter(buffer)
            body(&w)
            n = w.count
        }
    }

    /// The most bytes that a number or an instant takes (a 64-bit LEB128).
    static let maxVarint = 10

    @inline(__always) mutating func u8(_ v: UInt8) {
        precondition(count < capacity, "a state record outgrew its bound")
        base[count] = v
        count += 1
    }
    @inline(__always) mutating func u64(_ v: UInt64) {
        precondition(capacity - count >= 8, "a state record outgrew its bound")
        UnsafeMutableRawPointer(base + count).storeBytes(of: v.littleEndian, as: UInt64.self)
        count += 8
    }
    /// One check of the room for the longest number (the bound counts `maxVarint` bytes for
    /// each number and instant still to come), then one byte for the usual small value.
    @inline(__always) mutating func varint(_ v: UInt64) {
        precondition(capacity - count >= Self.maxVarint, "a state record outgrew its bound")
        if v < 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v)
            count += 1
        } else {
            longVarint(v)
        }
    }
    /// A number of two bytes or more: up to 8 bytes (56 bits, every instant's difference of
    /// less than 2^55 ms) spread into 7-bit groups with their continuation bits in one word and
    /// stored at once (the room for 10 was checked), longer ones byte by byte.
    private mutating func longVarint(_ v: UInt64) {
        if v < 1 << 56 {
            let length = (70 - v.leadingZeroBitCount) / 7 // 2...8 bytes
            // 28-bit halves into 32-bit lanes, 14-bit quarters into 16-bit lanes, 7-bit groups into bytes.
            var x = (v & 0x0FFF_FFFF) | ((v & 0xFF_FFFF_F000_0000) << 4)
            x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x0FFF_C000_0FFF_C000) << 2)
            x = (x & 0x007F_007F_007F_007F) | ((x & 0x3F80_3F80_3F80_3F80) << 1)
            x |= 0x8080_8080_8080_8080 & ((1 << UInt64(8 * (length - 1))) &- 1)
            UnsafeMutableRawPointer(base + count).storeBytes(of: x.littleEndian, as: UInt64.self)
            count += length
            return
        }
        var v = v
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            count += 1
            v >>= 7
        }
        base[count] = UInt8(v)
        count += 1
    }
    /// A non-negative number.
    @inline(__always) mutating func number(_ n: Int) { varint(UInt64(truncatingIfNeeded: n)) }
    /// `t` as its difference to `base`.
    @inline(__always) mutating func time(_ t: Int64, from base: Int64) {
        let d = t &- base
        varint(UInt64(bitPattern: (d << 1) ^ (d >> 63)))
    }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u in
            number(u.count)
            precondition(capacity - count >= u.count, "a state record outgrew its bound")
            if let p = u.baseAddress { (base + count).update(from: p, count: u.count) }
            count += u.count
        }
    }
}

/// Reads what `StateWriter` wrote (`compact`), or the fixed-width layout of record version 1
/// (numbers as UInt32, instants as absolute Int64); every read fails (returns nil) past the end.
/// It reads the bytes where they are (an array's storage, or an SQLite column's blob): it must
/// not outlive them.
struct StateReader {
    private let base: UnsafeRawPointer
    private let end: Int
    private var at = 0
    /// Variable-length numbers and instants as differences (record version 2 and later).
    let compact: Bool

    init(_ bytes: UnsafeRawBufferPointer, compact: Bool = true) {
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        end = bytes.count
        self.compact = compact
    }

    /// Whether every byte was read.
    var atEnd: Bool { at == end }
    /// How many bytes were read.
    var offset: Int { at }

    /// Passes `n` bytes; false (and nothing passed) when fewer are left.
    @inline(__always) mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, end - at >= n else { return false }
        at += n
        return true
    }

    private mutating func take(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, end - at >= n else { return nil }
        defer { at += n }
        return UnsafeRawBufferPointer(start: base + at, count: n)
    }

    @inline(__always) mutating func u8() -> UInt8? {
        guard at < end else { return nil }
        defer { at += 1 }
        return base.load(fromByteOffset: at, as: UInt8.self)
    }
    @inline(__always) mutating func u64() -> UInt64? {
        guard end - at >= 8 else { return nil }
        defer { at += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }
    mutating func u32() -> UInt32? {
        guard end - at >= 4 else { return nil }
        defer { at += 4 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    /// A LEB128 number: the usual one byte inline, longer ones in `longVarint`.
    @inline(__always) mutating func varint() -> UInt64? {
        if at < end {
            let b = base.load(fromByteOffset: at, as: UInt8.self)
            if b < 0x80 {
                at += 1
                return UInt64(b)
            }
        }
        return longVarint()
    }
    /// A number of two bytes or more. With 8 bytes left, one word is read: its first byte
    /// without the continuation bit ends the number, and the 7-bit groups before it are
    /// gathered at once; a number longer than 8 bytes, or near the end, byte by byte.
    private mutating func longVarint() -> UInt64? {
        if end - at >= 8 {
            let x = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let stops = ~x & 0x8080_8080_8080_8080
            if stops != 0 {
                let bits = stops.trailingZeroBitCount + 1 // 8 x the number's length
                // The bytes' 7-bit groups pairwise into 14, 28 and 56 bits.
                var v = x & ((1 << UInt64(bits)) &- 1) & 0x7F7F_7F7F_7F7F_7F7F
                v = (v & 0x007F_007F_007F_007F) | ((v & 0x7F00_7F00_7F00_7F00) >> 1)
                v = (v & 0x0000_3FFF_0000_3FFF) | ((v & 0x3FFF_0000_3FFF_0000) >> 2)
                v = (v & 0x0000_0000_0FFF_FFFF) | ((v & 0x0FFF_FFFF_0000_0000) >> 4)
                at += bits >> 3
                return v
            }
        }
        var v: UInt64 = 0, shift: UInt64 = 0
        while at < end, shift < 64 {
            let b = base.load(fromByteOffset: at, as: UInt8.self)
            at += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }
    /// A number that is not a count of items (a slot, an index, a total): not bounded by the
    /// bytes left.
    @inline(__always) mutating func number() -> Int? {
        if !compact { return u32().map(Int.init) }
        guard let v = varint(), v <= UInt64(Int32.max) else { return nil }
        return Int(v)
    }
    /// An instant written as its difference to `base` (absolute in version 1).
    @inline(__always) mutating func time(from base: Int64) -> Int64? {
        guard compact else { return i64() }
        guard let z = varint() else { return nil }
        let d = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
        return base &+ d
    }
    /// A count, bounded by the bytes left (each item takes at least `minBytes`).
    @inline(__always) mutating func count(minBytes: Int = 1) -> Int? {
        guard let n = number(), n <= (end - at) / max(1, minBytes) else { return nil }
        return n
    }
    mutating func string() -> String? {
        guard let n = count(), let s = take(n) else { return nil }
        return String(decoding: s, as: UTF8.self)
    }
}
