/// Open-addressing hash tables from a cell key to a (start, count) slice of an item list, one per
/// index level, all stored in one flat slot array. Key, start and count share one 16-byte slot,
/// so a probe touches one cache line; tables are at most a quarter full, so a probe for a cell
/// with nothing in it usually stops at the first slot.
enum CellTable {
    struct Slot: Sendable {
        var key: Int64
        var start: Int32
        var count: Int32
    }

    /// The key no cell has (cell indices of valid coordinates are small and non-negative).
    static let empty = Int64.min

    /// Fibonacci hashing multiplier (2^64 / golden ratio).
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Table capacity (a power of two, at least 16) and the shift that maps a hash to a slot.
    static func shape(cells n: Int) -> (capacity: Int, shift: Int) {
        var cap = 16, bits = 4
        while cap < n * 4 { cap <<= 1; bits += 1 }
        return (cap, 64 - bits)
    }

    /// The home slot of `key`: the top bits of the product, which depend on every bit of the key.
    @inline(__always) static func home(_ key: Int64, shift: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* multiplier) >> UInt64(shift))
    }

    /// Inserts `slot` (a key not yet present) into the table at `base ..< base + capacity`.
    static func insert(_ slot: Slot, into slots: inout [Slot], base: Int, capacity: Int, shift: Int) {
        var s = home(slot.key, shift: shift)
        while slots[base + s].key != empty { s = (s + 1) & (capacity - 1) }
        slots[base + s] = slot
    }
}
