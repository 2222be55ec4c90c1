/// Holdout membership (semantics 4.2): FNV-1a 64 of `campaign_id + ":" + user_id`, bucket
/// `h mod 10000`, held out iff the bucket is below `holdout_percent * 100`.
///
///     Holdout.fnv1a64("")       // 0xcbf29ce484222325
///     Holdout.fnv1a64("a")      // 0xaf63dc4c8601ec8c
///     Holdout.isHeldOut(campaignId: "car-shoppers", userId: "u-17", percent: 10)  // bucket < 1000
public enum Holdout {
    /// FNV-1a 64-bit offset basis.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV-1a 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a 64-bit hash of the UTF-8 bytes of `text`.
    /// - Complexity: O(bytes).
    public static func fnv1a64(_ text: String) -> UInt64 {
        var h = offsetBasis
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* prime
        }
        return h
    }

    /// The bucket 0..9999 of a user in a campaign.
    public static func bucket(campaignId: String, userId: String) -> Int {
        Int(fnv1a64(campaignId + ":" + userId) % 10_000)
    }

    /// The number of buckets held out for `percent`: the buckets `b` with `b < percent * 100`.
    ///
    /// `percent` is the decimal written in the file (`12.5` for `12.5%`); its product with 100 is
    /// taken as the decimal it denotes (within 1e-9, undoing binary rounding such as
    /// `0.1 * 100 = 10.000000000000002`), so `10%` holds out buckets 0..999 and `12.5%` 0..1249.
    public static func heldOutBuckets(percent: Double) -> Int {
        guard percent.isFinite, percent > 0 else { return 0 }
        let x = percent * 100
        let nearest = x.rounded()
        let threshold = abs(x - nearest) <= 1e-9 * max(1, abs(x)) ? nearest : x.rounded(.up)
        return Int(min(max(threshold, 0), 10_000))
    }

    /// Whether the user is held out of the campaign.
    public static func isHeldOut(campaignId: String, userId: String, percent: Double) -> Bool {
        bucket(campaignId: campaignId, userId: userId) < heldOutBuckets(percent: percent)
    }
}
