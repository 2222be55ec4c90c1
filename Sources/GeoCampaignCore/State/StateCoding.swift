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

    mutating func u8(_ v: UInt8) {
        precondition(count < capacity, "a state record outgrew its bound")
        base[count] = v
        count += 1
    }
    mutating func u64(_ v: UInt64) {
        precondition(capacity - count >= 8, "a state record outgrew its bound")
        UnsafeMutableRawPointer(base + count).storeBytes(of: v.littleEndian, as: UInt64.self)
        count += 8
    }
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            u8(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        u8(UInt8(v))
    }
    /// A non-negative number.
    mutating func number(_ n: Int) { varint(UInt64(truncatingIfNeeded: n)) }
    /// `t` as its difference to `base`.
    mutating func time(_ t: Int64, from base: Int64) {
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
    private let bytes: UnsafeRawBufferPointer
    private var at = 0
    /// Variable-length numbers and instants as differences (record version 2 and later).
    let compact: Bool

    init(_ bytes: UnsafeRawBufferPointer, compact: Bool = true) {
        self.bytes = bytes
        self.compact = compact
    }

    /// Whether every byte was read.
    var atEnd: Bool { at == bytes.count }

    private mutating func take(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, bytes.count - at >= n else { return nil }
        defer { at += n }
        return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)])
    }

    mutating func u8() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func u64() -> UInt64? {
        guard bytes.count - at >= 8, let base = bytes.baseAddress else { return nil }
        defer { at += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }
    mutating func u32() -> UInt32? {
        guard bytes.count - at >= 4, let base = bytes.baseAddress else { return nil }
        defer { at += 4 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    mutating func varint() -> UInt64? {
        var v: UInt64 = 0, shift: UInt64 = 0
        while at < bytes.count, shift < 64 {
            let b = bytes[at]
            at += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }
    /// A number that is not a count of items (a slot, an index, a total): not bounded by the
    /// bytes left.
    mutating func number() -> Int? {
        if !compact { return u32().map(Int.init) }
        guard let v = varint(), v <= UInt64(Int32.max) else { return nil }
        return Int(v)
    }
    /// An instant written as its difference to `base` (absolute in version 1).
    mutating func time(from base: Int64) -> Int64? {
        guard compact else { return i64() }
        guard let z = varint() else { return nil }
        let d = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
        return base &+ d
    }
    /// A count, bounded by the bytes left (each item takes at least `minBytes`).
    mutating func count(minBytes: Int = 1) -> Int? {
        guard let n = number(), n <= (bytes.count - at) / max(1, minBytes) else { return nil }
        return n
    }
    mutating func string() -> String? {
        guard let n = count(), let s = take(n) else { return nil }
        return String(decoding: s, as: UTF8.self)
    }
}
