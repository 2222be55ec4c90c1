/// Open-addressing hash table from a cell key to a (start, count) slice of a level's entry list.
/// Key, start and count share one 16-byte slot, so a probe touches one cache line.
struct CellTable: Sendable {
    struct Slot: Sendable {
        var key: Int64
        var start: Int32
        var count: Int32
    }

    private var slots: [Slot]
    private let mask: Int

    static let empty = Int64.min

    init(capacityFor n: Int) {
        var cap = 16
        while cap < n * 2 { cap <<= 1 }
        slots = [Slot](repeating: Slot(key: CellTable.empty, start: 0, count: 0), count: cap)
        mask = cap - 1
    }

    @inline(__always) private func slot(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
    }

    mutating func insert(key: Int64, start: Int32, count: Int32) {
        var s = slot(key)
        while slots[s].key != CellTable.empty && slots[s].key != key { s = (s + 1) & mask }
        slots[s] = Slot(key: key, start: start, count: count)
    }

    @inline(__always) func find(_ key: Int64) -> (Int32, Int32)? {
        slots.withUnsafeBufferPointer { table in
            var s = slot(key)
            while true {
                let k = table[s].key
                if k == key { return (table[s].start, table[s].count) }
                if k == CellTable.empty { return nil }
                s = (s + 1) & mask
            }
        }
    }
}
