/// The region ids of a campaign and where each was first defined: a hash table that keeps each
/// id's hash, so that growing it (a campaign may import hundreds of thousands of regions, file
/// after file) moves small integers instead of hashing every id again. Ids compare as Swift
/// strings do.
struct RegionIdTable {
    /// The ids, in the order they were added.
    private(set) var keys: [String] = []
    private var places: [RegionPlace] = []
    private var hashes: [Int] = []
    /// Open addressing, linear probing: an index into `keys`, or -1; a power of two long.
    private var slots: [Int32] = []

    /// Number of ids.
    var count: Int { keys.count }

    /// Ids the table holds without growing.
    var capacity: Int { slots.count / 2 }

    /// Where `id` was first defined, if it is known.
    /// - Complexity: O(1) on average, one hash of `id`.
    subscript(id: String) -> RegionPlace? {
        guard !slots.isEmpty else { return nil }
        let h = id.hashValue
        var s = h & (slots.count - 1)
        while true {
            let k = Int(slots[s])
            if k < 0 { return nil }
            if hashes[k] == h && keys[k] == id { return places[k] }
            s = (s + 1) & (slots.count - 1)
        }
    }

    /// Adds `id` defined at `place` unless it is known; returns the earlier place if it was.
    /// - Complexity: O(1) amortized, one hash of `id`.
    mutating func insert(_ id: String, _ place: RegionPlace) -> RegionPlace? {
        insert(id, place, hash: id.hashValue)
    }

    /// As `insert(id, place)`, with `hash` being `id.hashValue` (computed beforehand, on the
    /// thread that decoded the id).
    mutating func insert(_ id: String, _ place: RegionPlace, hash h: Int) -> RegionPlace? {
        if keys.count + 1 > capacity { reserveCapacity(max(keys.count + 1, 2 * capacity, 8)) }
        var s = h & (slots.count - 1)
        while true {
            let k = Int(slots[s])
            if k < 0 { break }
            if hashes[k] == h && keys[k] == id { return places[k] }
            s = (s + 1) & (slots.count - 1)
        }
        slots[s] = Int32(keys.count)
        keys.append(id)
        places.append(place)
        hashes.append(h)
        return nil
    }

    /// Starts loading the slot where an id with `hash` is looked for first (a hint for a loop
    /// about to insert it: each insert reads the table at a random place).
    @inline(__always) func prefetch(hash h: Int) {
        guard !slots.isEmpty else { return }
        slots.withUnsafeBufferPointer { if let base = $0.baseAddress { GeoCampaignCore.prefetch(base + (h & (slots.count - 1))) } }
    }

    /// Keeps only the first `n` ids (forgetting those added after them).
    /// - Complexity: O(capacity).
    mutating func truncate(to n: Int) {
        guard n < keys.count else { return }
        keys.removeSubrange(n...)
        places.removeSubrange(n...)
        hashes.removeSubrange(n...)
        let size = slots.count
        for s in slots.indices { slots[s] = -1 }
        for (k, h) in hashes.enumerated() {
            var s = h & (size - 1)
            while slots[s] >= 0 { s = (s + 1) & (size - 1) }
            slots[s] = Int32(k)
        }
    }

    /// Makes room for `n` ids (the table is at most half full).
    mutating func reserveCapacity(_ n: Int) {
        guard n > capacity else { return }
        var size = 16
        while size / 2 < n { size *= 2 }
        keys.reserveCapacity(n)
        places.reserveCapacity(n)
        hashes.reserveCapacity(n)
        // Filled by appends, 100k ids at once from a large import: huge pages (few faults).
        HugePages.advise(storageOf: &keys)
        HugePages.advise(storageOf: &places)
        HugePages.advise(storageOf: &hashes)
        var fresh = [Int32](repeating: -1, count: size)
        for (k, h) in hashes.enumerated() {
            var s = h & (size - 1)
            while fresh[s] >= 0 { s = (s + 1) & (size - 1) }
            fresh[s] = Int32(k)
        }
        slots = fresh
    }
}
