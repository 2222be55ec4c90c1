extension UserState {
    /// The version of the record layout (the database's schema version covers it too). Version 2
    /// added each seed's rule id, and writes the seeds' ids once each in a table that the seeds
    /// index; records of version 1 (schema version 1) are still read, their seeds with an
    /// unknown rule (empty `ruleId`).
    static let recordVersion: UInt8 = 2

    /// The record, with campaign `c` written as state slot `slots[c]`.
    /// - Complexity: O(size of the state).
    func encoded(slots: [Int]) -> [UInt8] {
        var w = StateWriter()
        w.u8(Self.recordVersion)
        w.i64(t0); w.i64(tEnd); w.i64(settled); w.count(held)
        w.count(crossing.groups.count)
        for g in crossing.groups { w.u64(g.maxAccuracyBits); w.i64(g.maxGapMs); w.i64(g.last) }
        w.count(campaigns.count)
        for (c, part) in campaigns.enumerated() {
            w.count(slots[c])
            w.u8(part.t0 == nil ? 0 : 1)
            w.i64(part.t0 ?? 0)
            w.count(part.visits.count)
            for v in part.visits {
                w.count(Int(v.region)); w.i64(v.enter); w.i64(v.exit ?? v.lastSeen); w.u8(v.reason == .gap ? 1 : 0)
            }
        }
        w.count(crossing.tracks.count)
        for t in crossing.tracks {
            w.count(slots[Int(t.campaign)]); w.count(Int(t.region)); w.u8(t.kind.rawValue); w.i64(t.a); w.i64(t.b)
        }
        // The ids of the seeds, each once (a user's seeds name few campaigns, offers and rules).
        var ids: [String] = [], number: [String: Int] = [:]
        func index(_ id: String) -> Int {
            if let k = number[id] { return k }
            number[id] = ids.count
            ids.append(id)
            return ids.count - 1
        }
        let indexed = seeds.map { (index($0.campaignId), index($0.offerId), index($0.ruleId)) }
        w.count(ids.count)
        for id in ids { w.string(id) }
        w.count(seeds.count)
        for (s, k) in zip(seeds, indexed) { w.i64(s.time); w.u8(s.delivered ? 1 : 0); w.count(k.0); w.count(k.1); w.count(k.2) }
        return w.bytes
    }

    /// Reads a record; campaigns whose slot is not in `campaignOfSlot` (changed or dropped
    /// campaigns) are left out: their parts start afresh (t0 nil), their tracks are dropped.
    /// - Returns: nil when the record is damaged.
    static func decoded(_ bytes: [UInt8], campaignOfSlot: [Int: Int], campaignCount: Int) -> UserState? {
        var r = StateReader(bytes)
        guard let version = r.u8(), version == 1 || version == recordVersion, let t0 = r.i64(), let tEnd = r.i64(), let settled = r.i64(), let held = r.number() else { return nil }
        var s = UserState(t0: t0, campaignCount: campaignCount)
        s.tEnd = tEnd
        s.settled = settled
        s.held = held
        for c in 0..<campaignCount { s.campaigns[c].t0 = nil }
        guard let ng = r.count(minBytes: 24) else { return nil }
        for _ in 0..<ng {
            guard let a = r.u64(), let g = r.i64(), let l = r.i64() else { return nil }
            s.crossing.groups.append(.init(maxAccuracyBits: a, maxGapMs: g, last: l))
        }
        guard let np = r.count(minBytes: 13) else { return nil }
        for _ in 0..<np {
            guard let slot = r.number(), let has = r.u8(), let pt0 = r.i64(), let nv = r.count(minBytes: 21) else { return nil }
            var visits: [Visit] = []
            visits.reserveCapacity(nv)
            for _ in 0..<nv {
                guard let reg = r.u32(), let enter = r.i64(), let exit = r.i64(), let reason = r.u8() else { return nil }
                visits.append(Visit(region: Int32(truncatingIfNeeded: reg), enter: enter, exit: exit, lastSeen: exit, reason: reason == 1 ? .gap : .left))
            }
            if let c = campaignOfSlot[slot], c < campaignCount {
                s.campaigns[c] = CampaignPart(t0: has == 1 ? pt0 : nil, visits: visits)
            }
        }
        guard let nt = r.count(minBytes: 25) else { return nil }
        for _ in 0..<nt {
            guard let slot = r.number(), let reg = r.u32(), let k = r.u8(), let kind = CrossingResume.Track.Kind(rawValue: k),
                  let a = r.i64(), let b = r.i64() else { return nil }
            if let c = campaignOfSlot[slot], c < campaignCount {
                s.crossing.tracks.append(.init(campaign: Int32(c), region: Int32(truncatingIfNeeded: reg), kind: kind, a: a, b: b))
            }
        }
        if version == 1 {
            guard let ns = r.count(minBytes: 17) else { return nil }
            for _ in 0..<ns {
                guard let time = r.i64(), let d = r.u8(), let cid = r.string(), let oid = r.string() else { return nil }
                s.seeds.append(Arbiter.Seed(time: time, delivered: d == 1, campaignId: cid, offerId: oid, ruleId: ""))
            }
        } else {
            guard let ni = r.count(minBytes: 4) else { return nil }
            var ids: [String] = []
            ids.reserveCapacity(ni)
            for _ in 0..<ni {
                guard let id = r.string() else { return nil }
                ids.append(id)
            }
            guard let ns = r.count(minBytes: 21) else { return nil }
            s.seeds.reserveCapacity(ns)
            for _ in 0..<ns {
                guard let time = r.i64(), let d = r.u8(), let c = r.number(), let o = r.number(), let k = r.number(),
                      c < ids.count, o < ids.count, k < ids.count else { return nil }
                s.seeds.append(Arbiter.Seed(time: time, delivered: d == 1, campaignId: ids[c], offerId: ids[o], ruleId: ids[k]))
            }
        }
        guard r.atEnd else { return nil }
        return s
    }
}
