/// Little-endian binary encoding of the state's records (user states), with bounds-checked
/// reading: a damaged record is an error value, never a crash.
struct StateWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func count(_ n: Int) { u32(UInt32(truncatingIfNeeded: n)) }
    mutating func string(_ s: String) {
        count(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }
}

/// Reads what `StateWriter` wrote; every read fails (returns nil) past the end.
struct StateReader {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    var atEnd: Bool { at == bytes.count }

    private mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, bytes.count - at >= n else { return nil }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    mutating func u8() -> UInt8? { take(1)?.first }
    mutating func u64() -> UInt64? {
        guard let s = take(8) else { return nil }
        var v: UInt64 = 0
        for (k, b) in s.enumerated() { v |= UInt64(b) << (8 * UInt64(k)) }
        return v
    }
    mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }
    mutating func u32() -> UInt32? {
        guard let s = take(4) else { return nil }
        var v: UInt32 = 0
        for (k, b) in s.enumerated() { v |= UInt32(b) << (8 * UInt32(k)) }
        return v
    }
    /// A number written by `count` that is not a count of items (a slot, an index, a total):
    /// not bounded by the bytes left.
    mutating func number() -> Int? { u32().map(Int.init) }
    /// A count, bounded by the bytes left (each item takes at least `minBytes`).
    mutating func count(minBytes: Int = 1) -> Int? {
        guard let n = u32().map(Int.init), n <= (bytes.count - at) / max(1, minBytes) else { return nil }
        return n
    }
    mutating func string() -> String? {
        guard let n = count(), let s = take(n) else { return nil }
        return String(decoding: s, as: UTF8.self)
    }
}
