extension UserState {
    /// The version of the record layout (the database's schema version covers it too).
    /// Version 2 added each seed's rule id, writes the seeds' ids once each in a table that the
    /// seeds index, and writes numbers as variable-length integers and instants as differences
    /// to a nearby instant (Tend, the previous visit's enter, ...), which halves a record.
    /// Records of version 1 (fixed-width numbers, absolute instants; schema version 1) are
    /// still read, their seeds with an unknown rule (empty `ruleId`).
    static let recordVersion: UInt8 = 2

    /// The record, with campaign `c` written as state slot `slots[c]`.
    /// - Complexity: O(size of the state).
    func encoded(slots: [Int]) -> [UInt8] {
        // The ids of the seeds, each once, and each seed's three indices among them, in room
        // on the stack (`withUnsafeTemporaryAllocation`; two arrays a record were two of its
        // allocations). A seed names the same campaign, offer and rule as the one before it
        // most of the time (one rule firing day after day), which costs three comparisons of
        // equal strings; else each id is searched among the few of the user (a linear search
        // beats hashing each id: it was a third of the encoding's cost).
        withUnsafeTemporaryAllocation(of: (Int, Int, Int).self, capacity: seeds.count) { indexed in
            withUnsafeTemporaryAllocation(of: String.self, capacity: 3 * seeds.count) { table in
                var n = 0
                defer { table.baseAddress?.deinitialize(count: n) }
                for (k, s) in seeds.enumerated() {
                    if k > 0, case let p = seeds[k - 1], s.campaignId == p.campaignId, s.offerId == p.offerId, s.ruleId == p.ruleId {
                        (indexed.baseAddress! + k).initialize(to: indexed[k - 1])
                    } else {
                        (indexed.baseAddress! + k).initialize(to: (Self.index(s.campaignId, in: table, count: &n), Self.index(s.offerId, in: table, count: &n),
                                                                   Self.index(s.ruleId, in: table, count: &n)))
                    }
                }
                let ids = UnsafeBufferPointer(rebasing: table[..<n])
                // The most bytes each part can take (every number and instant at its longest).
                let v = StateWriter.maxVarint
                var bound = 1 + 9 * v + crossing.groups.count * (8 + 2 * v) + crossing.tracks.count * (1 + 4 * v) + seeds.count * (1 + 4 * v)
                for part in campaigns { bound += 1 + 3 * v + part.visits.count * (1 + 3 * v) }
                for id in ids { bound += v + id.utf8.count }
                return StateWriter.bytes(bound: bound) { w in write(to: &w, slots: slots, ids: ids, indexed: UnsafeBufferPointer(indexed)) }
            }
        }
    }

    /// Writes the record (`encoded`), with the seeds' ids table `ids` and each seed's indices in it.
    private func write(to w: inout StateWriter, slots: [Int], ids: UnsafeBufferPointer<String>, indexed: UnsafeBufferPointer<(Int, Int, Int)>) {
        w.u8(Self.recordVersion)
        w.time(t0, from: 0); w.time(tEnd, from: t0); w.time(settled, from: tEnd); w.number(held)
        w.number(crossing.groups.count)
        for g in crossing.groups { w.u64(g.maxAccuracyBits); w.time(g.maxGapMs, from: 0); w.time(g.last, from: tEnd) }
        w.number(campaigns.count)
        for (c, part) in campaigns.enumerated() {
            w.number(slots[c])
            w.u8(part.t0 == nil ? 0 : 1)
            w.time(part.t0 ?? 0, from: t0)
            w.number(part.visits.count)
            var previous = tEnd
            for v in part.visits {
                let exit = v.exit ?? v.lastSeen
                w.number(Int(v.region)); w.time(v.enter, from: previous); w.time(exit, from: v.enter); w.u8(v.reason == .gap ? 1 : 0)
                previous = v.enter
            }
        }
        w.number(crossing.tracks.count)
        for t in crossing.tracks {
            w.number(slots[Int(t.campaign)]); w.number(Int(t.region)); w.u8(t.kind.rawValue); w.time(t.a, from: tEnd); w.time(t.b, from: t.a)
        }
        w.number(ids.count)
        for id in ids { w.string(id) }
        w.number(seeds.count)
        var previous = tEnd
        for (s, k) in zip(seeds, indexed) {
            w.time(s.time, from: previous); w.u8(s.delivered ? 1 : 0); w.number(k.0); w.number(k.1); w.number(k.2)
            previous = s.time
        }
    }

    /// The seeds of a record of version 2: the table of their ids (read into room on the stack,
    /// `withUnsafeTemporaryAllocation`), then each seed's time, status and indices in it.
    /// - Returns: nil when the bytes are damaged.
    private static func seedsOfVersion2(_ r: inout StateReader, tEnd: Int64) -> [Arbiter.Seed]? {
        guard let ni = r.count(minBytes: 1) else { return nil }
        return withUnsafeTemporaryAllocation(of: String.self, capacity: ni) { ids -> [Arbiter.Seed]? in
            var n = 0
            defer { ids.baseAddress?.deinitialize(count: n) }
            while n < ni {
                guard let id = r.string() else { return nil }
                (ids.baseAddress! + n).initialize(to: id)
                n += 1
            }
            guard let ns = r.count(minBytes: 5) else { return nil }
            var seeds: [Arbiter.Seed] = []
            seeds.reserveCapacity(ns)
            var previous = tEnd
            for _ in 0..<ns {
                guard let time = r.time(from: previous), let d = r.u8(), let c = r.number(), let o = r.number(), let k = r.number(),
                      c < ni, o < ni, k < ni else { return nil }
                seeds.append(Arbiter.Seed(time: time, delivered: d == 1, campaignId: ids[c], offerId: ids[o], ruleId: ids[k]))
                previous = time
            }
            return seeds
        }
    }

    /// The index of `id` among the first `count` ids of `table`, added after them when it is
    /// not there (the table has room for every id of the record).
    private static func index(_ id: String, in table: UnsafeMutableBufferPointer<String>, count: inout Int) -> Int {
        for k in 0..<count where table[k] == id { return k }
        (table.baseAddress! + count).initialize(to: id)
        count += 1
        return count - 1
    }

    /// Reads a record (of either version); campaigns whose slot is not in `campaignOfSlot`
    /// (changed or dropped campaigns) are left out: their parts start afresh (t0 nil), their
    /// tracks are dropped.
    /// - Returns: nil when the record is damaged.
    static func decoded(_ bytes: [UInt8], campaignOfSlot: [Int: Int], campaignCount: Int) -> UserState? {
        decoded(bytes, campaignOfSlot: SlotMap(campaignOfSlot), campaignCount: campaignCount)
    }

    /// As `decoded(_:campaignOfSlot:campaignCount:)`, with the slots' campaigns as a `SlotMap`
    /// (made once per run).
    static func decoded(_ bytes: [UInt8], campaignOfSlot: SlotMap, campaignCount: Int) -> UserState? {
        bytes.withUnsafeBytes { decoded($0, campaignOfSlot: campaignOfSlot, campaignCount: campaignCount) }
    }

    /// Reads a record where it lies (an SQLite column's blob: `StateStore.UserReader.state`).
    /// Each part is built once, in its final array (reserved at its count), and the visits of a
    /// campaign that is not in `campaignOfSlot` are read past, not kept.
    static func decoded(_ bytes: UnsafeRawBufferPointer, campaignOfSlot: SlotMap, campaignCount: Int) -> UserState? {
        guard let version = bytes.first, version == 1 || version == recordVersion else { return nil }
        var r = StateReader(bytes, compact: version >= 2)
        _ = r.u8()
        guard let t0 = r.time(from: 0), let tEnd = r.time(from: t0), let settled = r.time(from: tEnd), let held = r.number() else { return nil }
        guard let ng = r.count(minBytes: 10) else { return nil }
        var crossing = CrossingResume()
        crossing.groups.reserveCapacity(ng)
        for _ in 0..<ng {
            guard let a = r.u64(), let g = r.time(from: 0), let l = r.time(from: tEnd) else { return nil }
            crossing.groups.append(.init(maxAccuracyBits: a, maxGapMs: g, last: l))
        }
        guard let np = r.count(minBytes: 4) else { return nil }
        // The parts by campaign; a campaign that no part names starts afresh (t0 nil).
        var campaigns: [CampaignPart] = []
        campaigns.reserveCapacity(campaignCount)
        for _ in 0..<np {
            guard let slot = r.number(), let has = r.u8(), let pt0 = r.time(from: t0), let nv = r.count(minBytes: 4) else { return nil }
            let c = campaignOfSlot[slot].flatMap { $0 < campaignCount ? $0 : nil }
            var visits: [Visit] = []
            // Room for a day's fresh visits beside the kept ones (`Replay.resume` appends them in place).
            if c != nil, nv > 0 { visits.reserveCapacity(nv + 4) }
            var previous = tEnd
            for _ in 0..<nv {
                guard let reg = r.number(), let enter = r.time(from: previous), let exit = r.time(from: enter), let reason = r.u8() else { return nil }
                if c != nil {
                    visits.append(Visit(region: Int32(truncatingIfNeeded: reg), enter: enter, exit: exit, lastSeen: exit, reason: reason == 1 ? .gap : .left))
                }
                previous = enter
            }
            if let c {
                while campaigns.count < c { campaigns.append(CampaignPart(t0: nil)) }
                let part = CampaignPart(t0: has == 1 ? pt0 : nil, visits: visits)
                if c == campaigns.count { campaigns.append(part) } else { campaigns[c] = part }
            }
        }
        while campaigns.count < campaignCount { campaigns.append(CampaignPart(t0: nil)) }
        guard let nt = r.count(minBytes: 5) else { return nil }
        crossing.tracks.reserveCapacity(nt)
        for _ in 0..<nt {
            guard let slot = r.number(), let reg = r.number(), let k = r.u8(), let kind = CrossingResume.Track.Kind(rawValue: k),
                  let a = r.time(from: tEnd), let b = r.time(from: a) else { return nil }
            if let c = campaignOfSlot[slot], c < campaignCount {
                crossing.tracks.append(.init(campaign: Int32(c), region: Int32(truncatingIfNeeded: reg), kind: kind, a: a, b: b))
            }
        }
        var seeds: [Arbiter.Seed] = []
        if version == 1 {
            guard let ns = r.count(minBytes: 17) else { return nil }
            seeds.reserveCapacity(ns)
            for _ in 0..<ns {
                guard let time = r.i64(), let d = r.u8(), let cid = r.string(), let oid = r.string() else { return nil }
                seeds.append(Arbiter.Seed(time: time, delivered: d == 1, campaignId: cid, offerId: oid, ruleId: ""))
            }
        } else {
            guard let s = seedsOfVersion2(&r, tEnd: tEnd) else { return nil }
            seeds = s
        }
        guard r.atEnd else { return nil }
        return UserState(t0: t0, tEnd: tEnd, settled: settled, held: held, crossing: crossing, campaigns: campaigns, seeds: seeds)
    }
}

/// The campaign index of each state slot that continues in a run (`StatefulDriver.reconcile`),
/// looked up for every part and track of every record read: the few slots sorted, searched by
/// halves (a dictionary hashed each slot, 4 lookups a record at about 140 instructions each).
struct SlotMap: Sendable {
    private let slots: [Int]
    private let campaigns: [Int]

    init(_ map: [Int: Int]) {
        let sorted = map.sorted { $0.key < $1.key }
        slots = sorted.map(\.key)
        campaigns = sorted.map(\.value)
    }

    /// The campaign of `slot`, nil when the slot does not continue.
    subscript(slot: Int) -> Int? {
        var lo = 0, hi = slots.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if slots[mid] < slot { lo = mid + 1 } else { hi = mid }
        }
        return lo < slots.count && slots[lo] == slot ? campaigns[lo] : nil
    }
}
