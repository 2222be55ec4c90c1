import Foundation

/// A fresh folder holding `campaigns/shop.yaml`: one campaign whose rule fires for any fix inside
/// a 100 m circle at 37.70, -121.75 (no hysteresis, no confirmation), for end-to-end tests that
/// need one simple decision per user.
enum ShopCampaignFixture {
    /// Makes the folder (under the temporary directory, named with `prefix`) and returns it.
    static func make(prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        let campaigns = dir.appendingPathComponent("campaigns")
        try FileManager.default.createDirectory(at: campaigns, withIntermediateDirectories: true)
        try """
        campaign: shop
        tracking: { hysteresis: 0m, confirm: 0s }
        regions:
          - id: shop
            circle: { center: "37.70, -121.75", radius: 100m }
            tags: [shop]
        rules:
          - id: at-shop
            when:
              inside: { tags: [shop] }
            offer: coupon
        offers:
          - id: coupon
            message: A coupon

        """.write(to: campaigns.appendingPathComponent("shop.yaml"), atomically: true, encoding: .utf8)
        return dir
    }
}
