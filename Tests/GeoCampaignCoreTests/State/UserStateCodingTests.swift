import XCTest
@testable import GeoCampaignCore

/// The user record round-trips, whatever the campaigns' slot numbers (they grow by one with each
/// campaign change, state.md 1.3) and with the seeds' ids written once each.
final class UserStateCodingTests: XCTestCase {
    static func state() -> UserState {
        var s = UserState(t0: 1_000, campaignCount: 2)
        s.tEnd = 9_000
        s.settled = 8_000
        s.held = 70
        s.crossing.groups = [.init(maxAccuracyBits: 42, maxGapMs: 600_000, last: 8_500)]
        s.campaigns[0].visits = [Visit(region: 3, enter: 2_000, exit: 3_000, lastSeen: 3_000, reason: .left)]
        s.crossing.tracks = [.init(campaign: 1, region: 0, kind: .inside, a: 8_000, b: 8_900)]
        s.seeds = [
            .init(time: 2_500, delivered: true, campaignId: "c-a", offerId: "o-1", ruleId: "r-1"),
            .init(time: 2_600, delivered: false, campaignId: "c-a", offerId: "o-1", ruleId: "r-2"),
            .init(time: 2_700, delivered: true, campaignId: "c-b", offerId: "o-1", ruleId: "r-1"),
        ]
        return s
    }

    func testARecordRoundTripsWithLargeSlotsAndManyHeldDecisions() {
        let s = Self.state()
        for slots in [[1, 2], [5_000, 70_000]] {
            let record = s.encoded(slots: slots)
            let back = UserState.decoded(record, campaignOfSlot: [slots[0]: 0, slots[1]: 1], campaignCount: 2)
            XCTAssertEqual(back, s, "slots \(slots)")
        }
    }

    /// The slots' campaigns are looked up in a `SlotMap` (sorted slots searched by halves): it
    /// answers as the dictionary it is made from, for slots in it, between, before and after
    /// them, and for maps of every size from none to many.
    func testASlotMapAnswersAsItsDictionary() {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 3, 4, 7, 8, 9, 40] {
            var map: [Int: Int] = [:]
            while map.count < size { map[Int.random(in: 1...200, using: &rng)] = Int.random(in: 0..<50, using: &rng) }
            let slots = SlotMap(map)
            for slot in -1...202 { XCTAssertEqual(slots[slot], map[slot], "size \(size), slot \(slot)") }
            XCTAssertNil(slots[Int.max])
            XCTAssertNil(slots[Int.min])
        }
        // The largest slot a record can name.
        XCTAssertEqual(SlotMap([Int(Int32.max): 4, 1: 0])[Int(Int32.max)], 4)
    }

    /// Instants are written as differences: extreme ones (a new user's horizon, an entering
    /// track's zero, visits out of order) round-trip too.
    func testExtremeInstantsRoundTrip() {
        var s = Self.state()
        s.settled = .min
        s.t0 = .min + 1
        s.tEnd = .max
        s.crossing.tracks.append(.init(campaign: 0, region: 7, kind: .entering, a: .max, b: 0))
        s.campaigns[1].visits = [Visit(region: 1, enter: 5_000, exit: .max, lastSeen: .max, reason: .gap),
                                 Visit(region: 0, enter: -5, exit: -1, lastSeen: -1, reason: .left)]
        s.seeds[1].time = .min
        let back = UserState.decoded(s.encoded(slots: [1, 2]), campaignOfSlot: [1: 0, 2: 1], campaignCount: 2)
        XCTAssertEqual(back, s)
    }

    /// A record is written into an array sized by a bound of its length (`StateWriter.bytes`),
    /// which writing past stops the program: random states whose numbers and instants take
    /// every length up to the longest, with many parts, round-trip.
    func testRandomStatesAtEveryLengthRoundTrip() {
        var g = SplitMix(seed: 42)
        func any() -> Int64 {
            // Values of every magnitude, the extremes included.
            switch g.next() % 4 {
            case 0: return .min
            case 1: return .max
            default: return Int64(bitPattern: g.next()) >> (g.next() % 64)
            }
        }
        var longest = 0
        for round in 0..<300 {
            let campaigns = Int(g.next() % 4) + 1
            var s = UserState(t0: any(), campaignCount: campaigns)
            s.tEnd = any(); s.settled = any(); s.held = Int(g.next() % UInt64(Int32.max)) // numbers are at most Int32.max
            for _ in 0..<(g.next() % 3) { s.crossing.groups.append(.init(maxAccuracyBits: g.next(), maxGapMs: any(), last: any())) }
            for c in 0..<campaigns {
                s.campaigns[c].t0 = g.next() % 3 == 0 ? nil : any()
                for _ in 0..<(g.next() % 5) {
                    let exit = any()
                    s.campaigns[c].visits.append(Visit(region: Int32(g.next() % 100_000), enter: any(), exit: exit, lastSeen: exit,
                                                       reason: g.next() % 2 == 0 ? .gap : .left))
                }
            }
            for _ in 0..<(g.next() % 4) {
                s.crossing.tracks.append(.init(campaign: Int32(g.next() % UInt64(campaigns)), region: Int32(g.next() % 100_000),
                                               kind: g.next() % 2 == 0 ? .inside : .entering, a: any(), b: any()))
            }
            for k in 0..<(g.next() % 6) {
                let id = String(repeating: "é-\(k)", count: Int(g.next() % 40))
                s.seeds.append(.init(time: any(), delivered: g.next() % 2 == 0, campaignId: "c\(k % 2)" + id, offerId: id, ruleId: "r\(round)"))
            }
            let slots = (0..<campaigns).map { _ in Int(g.next() % UInt64(Int32.max)) }
            let record = s.encoded(slots: slots)
            longest = max(longest, record.count)
            let map = Dictionary(slots.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            guard Set(slots).count == slots.count else { continue }
            XCTAssertEqual(UserState.decoded(record, campaignOfSlot: map, campaignCount: campaigns), s, "round \(round)")
        }
        XCTAssertGreaterThan(longest, 500)
    }

    /// Each part of a record at its longest on its own (so that no other part's slack hides a
    /// bound too small for it): 200 visits, tracks, tracking groups or seeds whose instants
    /// all lie about Int64.max from the instant they are written against (10 bytes each).
    func testEachPartAtItsLongestRoundTrips() {
        let hi = Int64.max, lo = Int64.min + 1
        for part in 0..<4 {
            var s = UserState(t0: 0, campaignCount: 1)
            s.tEnd = 0; s.settled = hi; s.held = Int(Int32.max)
            for k in 0..<200 {
                let even = k % 2 == 0
                switch part {
                case 0: s.campaigns[0].visits.append(Visit(region: .max, enter: even ? hi : 0, exit: even ? 0 : hi, lastSeen: even ? 0 : hi, reason: .gap))
                case 1: s.crossing.tracks.append(.init(campaign: 0, region: .max, kind: .entering, a: even ? hi : lo, b: 0))
                case 2: s.crossing.groups.append(.init(maxAccuracyBits: .max, maxGapMs: even ? hi : lo, last: even ? lo : hi))
                default: s.seeds.append(.init(time: even ? hi : 0, delivered: true, campaignId: "c", offerId: "o", ruleId: "r"))
                }
            }
            let record = s.encoded(slots: [Int(Int32.max)])
            XCTAssertGreaterThan(record.count, 200 * 13, "part \(part)")
            XCTAssertEqual(UserState.decoded(record, campaignOfSlot: [Int(Int32.max): 0], campaignCount: 1), s, "part \(part)")
        }
    }

    /// Records as main's build wrote them (`Tests/Data/state-records-m`, 139 users of the M city
    /// after 29 stateful days): each decodes and encodes again to the same bytes, so the encoding
    /// is the one states already hold (their content digests, a user whose record is rewritten
    /// unchanged).
    func testRecordsOfAnEarlierBuildEncodeToTheSameBytes() throws {
        let text = try String(contentsOfFile: TestData.path("state-records-m/records.hex"), encoding: .utf8)
        let records = text.split(separator: "\n").map { line in
            stride(from: 0, to: line.utf8.count, by: 2).map { k in
                UInt8(line[line.index(line.startIndex, offsetBy: k)..<line.index(line.startIndex, offsetBy: k + 2)], radix: 16)!
            }
        }
        XCTAssertEqual(records.count, 139)
        var seeds = 0, visits = 0
        for (k, record) in records.enumerated() {
            guard let s = UserState.decoded(record, campaignOfSlot: [1: 0, 2: 1, 3: 2], campaignCount: 3) else {
                XCTFail("record \(k) is not read")
                continue
            }
            seeds += s.seeds.count
            visits += s.campaigns.reduce(0) { $0 + $1.visits.count }
            XCTAssertEqual(s.encoded(slots: [1, 2, 3]), record, "record \(k)")
        }
        XCTAssertGreaterThan(seeds, 500)
        XCTAssertGreaterThan(visits, 500)
    }

    /// Numbers are written a word at a time and read a word at a time: at every length (1-10
    /// bytes) they are the LEB128 bytes, and read back both with 8 bytes or more after them and
    /// at the very end of a record.
    func testNumbersOfEveryLengthAreLEB128() {
        func leb128(_ v: UInt64) -> [UInt8] {
            var v = v, out: [UInt8] = []
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            return out + [UInt8(v)]
        }
        var g = SplitMix(seed: 7)
        var values: [UInt64] = [0, 1, 0x7F, 0x80, .max, .max >> 1, 1 << 56, (1 << 56) - 1, 1 << 63]
        for bits in 1...64 { for _ in 0..<20 { values.append((g.next() >> (64 - UInt64(bits))) | (1 << UInt64(bits - 1))) } }
        for v in values {
            let written = StateWriter.bytes(bound: StateWriter.maxVarint) { $0.varint(v) }
            XCTAssertEqual(written, leb128(v), "\(v)")
            for tail in [0, 3, 9] {
                let bytes = written + [UInt8](repeating: 0xFF, count: tail)
                bytes.withUnsafeBytes { raw in
                    var r = StateReader(raw)
                    XCTAssertEqual(r.varint(), v, "\(v), \(tail) bytes after it")
                    var cut = StateReader(UnsafeRawBufferPointer(rebasing: raw[0..<(written.count - 1)]))
                    XCTAssertNil(cut.varint(), "\(v) cut short")
                }
            }
        }
    }

    func testADamagedRecordIsNil() {
        let record = Self.state().encoded(slots: [1, 2])
        for cut in [1, 10, record.count / 2, record.count - 1] {
            XCTAssertNil(UserState.decoded(Array(record.prefix(cut)), campaignOfSlot: [1: 0, 2: 1], campaignCount: 2), "cut at \(cut)")
        }
        var badIndex = record
        badIndex[badIndex.count - 1] = 9 // the last seed's rule index points past the id table
        XCTAssertNil(UserState.decoded(badIndex, campaignOfSlot: [1: 0, 2: 1], campaignCount: 2))
    }
}
