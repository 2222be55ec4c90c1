extension UserBlock {
    /// The blob of a block being written (`UserBlock`'s layout): entries appended in byte order
    /// of the ids, new ones or runs of a stored block's entries copied as they stand, then cut
    /// into rows (`pieces`).
    struct Builder {
        /// The entries' bytes.
        private(set) var bytes: [UInt8] = []
        /// Per entry: where it begins, its id's offset and length, and its held decisions.
        private var starts: [Int32] = []
        private var idOffsets: [Int32] = []
        private var idCounts: [Int32] = []
        private var helds: [Int32] = []

        /// No entries.
        var isEmpty: Bool { starts.isEmpty }
        /// The number of entries.
        var count: Int { starts.count }

        /// Drops every entry, keeping the room (`bytes` is reserved for `reserving` bytes).
        mutating func reset(reserving: Int = 0) {
            bytes.removeAll(keepingCapacity: true)
            bytes.reserveCapacity(reserving)
            starts.removeAll(keepingCapacity: true)
            idOffsets.removeAll(keepingCapacity: true)
            idCounts.removeAll(keepingCapacity: true)
            helds.removeAll(keepingCapacity: true)
        }

        /// Appends a user (its id above every id appended so far).
        mutating func append(id: UnsafeRawBufferPointer, held: Int, record: UnsafeRawBufferPointer) {
            starts.append(Int32(bytes.count))
            varint(id.count)
            idOffsets.append(Int32(bytes.count))
            idCounts.append(Int32(id.count))
            bytes.append(contentsOf: id)
            helds.append(Int32(truncatingIfNeeded: held))
            varint(held)
            varint(record.count)
            bytes.append(contentsOf: record)
        }

        /// Appends entries `range` of `block` as their bytes stand (their ids above every id
        /// appended so far).
        mutating func append(_ block: UserBlock, entries range: Range<Int>) {
            guard !range.isEmpty else { return }
            let shift = Int32(bytes.count) - block.entries[range.lowerBound].start
            for i in range {
                let e = block.entries[i]
                starts.append(e.start + shift)
                idOffsets.append(e.idOffset + shift)
                idCounts.append(e.idCount)
                helds.append(e.held)
            }
            bytes.append(contentsOf: block.bytes(of: range))
        }

        private mutating func varint(_ n: Int) {
            var v = UInt64(n)
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        /// One row's part of the entries.
        struct Piece {
            /// Its bytes in `bytes`.
            var range: Range<Int>
            var users: Int
            var held: Int
            /// Its first id, in `bytes`.
            var firstId: Range<Int>
        }

        /// The entries cut into rows: one when they take at most `maxBytes`, else pieces of
        /// about `maxBytes / 2` bytes (a block split this way can grow to twice its size before
        /// it is split again), each at least one entry and at most `maxBytes` (an entry larger
        /// than that is a piece of its own).
        /// - Complexity: O(entries).
        func pieces(maxBytes: Int) -> [Piece] {
            guard !starts.isEmpty else { return [] }
            let total = bytes.count
            let parts = total <= maxBytes ? 1 : max(2, (total + maxBytes / 2 - 1) / max(1, maxBytes / 2))
            let target = (total + parts - 1) / parts
            var out: [Piece] = []
            var begin = 0
            var held = 0
            for k in 0..<starts.count {
                let start = Int(starts[k])
                let size = start - Int(starts[begin])
                let next = (k + 1 < starts.count ? Int(starts[k + 1]) : total) - start
                if k > begin, size >= target || size + next > maxBytes {
                    out.append(piece(begin, k, held: held))
                    begin = k
                    held = 0
                }
                held += Int(helds[k])
            }
            out.append(piece(begin, starts.count, held: held))
            return out
        }

        private func piece(_ a: Int, _ b: Int, held: Int) -> Piece {
            let end = b < starts.count ? Int(starts[b]) : bytes.count
            let id = Int(idOffsets[a])
            return Piece(range: Int(starts[a])..<end, users: b - a, held: held, firstId: id..<(id + Int(idCounts[a])))
        }
    }
}
