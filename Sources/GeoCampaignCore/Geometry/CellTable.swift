/// Open-addressing hash tables from a tile key to the tile's block of cells, one table per index
/// level, all stored in one flat slot array. A tile is 4 x 4 cells whose starts lie next to each
/// other in memory, so a user moving to a neighbouring cell usually finds it in the same tile
/// (no probe) and in a cache line already loaded. Tables are at most half full.
enum CellTable {
    struct Slot: Sendable {
        var key: Int64
        /// Index in `RegionIndex.starts` of the tile's first cell (16 cells, row-major by (y & 3, x & 3)).
        var base: Int
    }

    /// Tiles are `tileSide` x `tileSide` cells.
    static let tileShift: Int64 = 2
    static let tileSide = 4
    static let cellsPerTile = 16

    /// The key no tile has (cell indices of valid coordinates are small and non-negative).
    static let empty = Int64.min

    /// Fibonacci hashing multiplier (2^64 / golden ratio).
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Table capacity (a power of two, at least 16) and the shift that maps a hash to a slot.
    static func shape(tiles n: Int) -> (capacity: Int, shift: Int) {
        var cap = 16, bits = 4
        while cap < n * 2 { cap <<= 1; bits += 1 }
        return (cap, 64 - bits)
    }

    /// The home slot of `key`: the top bits of the product, which depend on every bit of the key.
    @inline(__always) static func home(_ key: Int64, shift: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* multiplier) >> UInt64(shift))
    }

    /// The key of the tile holding cell (x, y).
    @inline(__always) static func tileKey(_ x: Int64, _ y: Int64) -> Int64 {
        RegionIndex.key(x >> tileShift, y >> tileShift)
    }

    /// The position of cell (x, y) within its tile's block of cells.
    @inline(__always) static func offsetInTile(_ x: Int64, _ y: Int64) -> Int {
        Int(truncatingIfNeeded: ((y & 3) << 2) | (x & 3))
    }

    /// The slot of `key` in the table at `base ..< base + capacity`: where it is, or the empty
    /// slot where it would go.
    static func find(_ key: Int64, in slots: [Slot], base: Int, capacity: Int, shift: Int) -> Int {
        var s = home(key, shift: shift)
        while slots[base + s].key != empty && slots[base + s].key != key { s = (s + 1) & (capacity - 1) }
        return base + s
    }
}
