/// Where a region's track lies in the crossing loop's track array, for users with many tracks at
/// once (a fix inside thousands of overlapping regions): an open-addressing table from region to
/// track position, so that finding a candidate's track costs O(1) instead of a scan of every
/// track. With a few tracks the loop scans them instead (`linearLimit`), which is cheaper.
///
/// The table mirrors a prefix `0 ..< count` of the track array. Appending tracks keeps it valid
/// (`sync` adds the new ones); removing or reordering tracks must be followed by `invalidate()`,
/// and the next `sync` rebuilds it. The owner calls `free()` exactly once when done.
struct TrackSlots {
    /// One table entry: a region and its position in the track array (`region == -1`: empty).
    struct Slot {
        var region: Int32
        var track: Int32
    }

    /// Up to this many tracks the loop scans them rather than use the table.
    static let linearLimit = 8

    private var slots: UnsafeMutablePointer<Slot>?
    private var capacity = 0
    private var shift = 32
    /// Tracks `0 ..< count` of the mirrored array are in the table.
    private(set) var count = 0
    private var valid = false

    /// An empty table; it allocates at the first `sync`.
    init() {}

    /// Forgets the table's contents (tracks were removed or moved).
    @inline(__always) mutating func invalidate() { valid = false }

    /// Makes the table mirror `tracks[0 ..< n]`: adds the tracks appended since the last call, or
    /// rebuilds it after `invalidate()`.
    /// - Complexity: O(tracks added), O(n) after `invalidate()` or when the table grows.
    mutating func sync(_ tracks: [RegionTrack], _ n: Int) {
        if !valid || n < count || 2 * n > capacity {
            if 2 * n > capacity { grow(to: n) }
            clear()
            valid = true
        }
        while count < n {
            insert(tracks[count].region, Int32(truncatingIfNeeded: count))
            count += 1
        }
    }

    /// The position of `region`'s track among the mirrored tracks, or nil.
    /// - Complexity: O(1) expected.
    @inline(__always) func find(_ region: Int32) -> Int? {
        guard let slots else { return nil }
        var s = home(region)
        let mask = capacity - 1
        while true {
            let slot = slots[s]
            if slot.region == region { return Int(slot.track) }
            if slot.region < 0 { return nil }
            s = (s + 1) & mask
        }
    }

    /// Releases the storage.
    func free() { slots?.deallocate() }

    @inline(__always) private func home(_ region: Int32) -> Int {
        Int((UInt32(bitPattern: region) &* 0x9E37_79B1) >> UInt32(shift)) & (capacity - 1)
    }

    private mutating func insert(_ region: Int32, _ track: Int32) {
        guard let slots else { return }
        var s = home(region)
        let mask = capacity - 1
        while slots[s].region >= 0 {
            // A region listed twice keeps its first track, as the scan finds the first.
            if slots[s].region == region { return }
            s = (s + 1) & mask
        }
        slots[s] = Slot(region: region, track: track)
    }

    private mutating func clear() {
        if let slots { slots.update(repeating: Slot(region: -1, track: -1), count: capacity) }
        count = 0
    }

    /// Room for at least `n` tracks at a load of at most one half.
    private mutating func grow(to n: Int) {
        var c = 16
        while c < 2 * n { c *= 2 }
        slots?.deallocate()
        let fresh = UnsafeMutablePointer<Slot>.allocate(capacity: c)
        fresh.initialize(repeating: Slot(region: -1, track: -1), count: c)
        slots = fresh
        capacity = c
        shift = 32 - c.trailingZeroBitCount
    }
}
