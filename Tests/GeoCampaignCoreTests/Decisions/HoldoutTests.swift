import XCTest
@testable import GeoCampaignCore

final class HoldoutTests: XCTestCase {
    /// Published FNV-1a 64-bit test vectors (Fowler/Noll/Vo reference test suite).
    func testFNV1a64Vectors() {
        let vectors: [(String, UInt64)] = [
            ("", 0xcbf2_9ce4_8422_2325),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("b", 0xaf63_df4c_8601_f1a5),
            ("foo", 0xdcb2_7518_fed9_d577),
            ("foobar", 0x8594_4171_f739_67e8),
            ("chongo was here!\n", 0x4681_0940_eff5_f915),
        ]
        for (text, hash) in vectors {
            XCTAssertEqual(Holdout.fnv1a64(text), hash, text)
        }
    }

    func testHeldOutBuckets() {
        let cases: [(Double, Int)] = [(0, 0), (10, 1000), (12.5, 1250), (0.1, 10), (0.01, 1), (0.005, 1),
                                      (33.33, 3333), (50, 5000), (100, 10_000), (0.29, 29), (0.57, 57)]
        for (percent, buckets) in cases {
            XCTAssertEqual(Holdout.heldOutBuckets(percent: percent), buckets, "\(percent)%")
        }
    }

    func testMembershipFollowsTheBucket() {
        for user in ["u-17", "50189", "ü-1", ""] {
            let b = Holdout.bucket(campaignId: "car-shoppers", userId: user)
            XCTAssertEqual(UInt64(b), Holdout.fnv1a64("car-shoppers:" + user) % 10_000)
            XCTAssertTrue(Holdout.isHeldOut(campaignId: "car-shoppers", userId: user, percent: Double(b + 1) / 100))
            XCTAssertFalse(Holdout.isHeldOut(campaignId: "car-shoppers", userId: user, percent: Double(b) / 100))
        }
    }
}
