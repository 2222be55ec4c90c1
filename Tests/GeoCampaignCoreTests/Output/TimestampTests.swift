import Testing
@testable import GeoCampaignCore

/// RFC 3339 output of instants (formats.md 3.1): UTC with Z, milliseconds only when not zero.
struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_772_472_679_000, "2026-03-02T17:31:19Z"),
        (1_772_472_679_250, "2026-03-02T17:31:19.250Z"),
        (1_772_472_679_001, "2026-03-02T17:31:19.001Z"),
        (1_772_472_679_090, "2026-03-02T17:31:19.090Z"),
        (1_772_472_679_910, "2026-03-02T17:31:19.910Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
    ])
    func formats(ms: Int64, text: String) {
        #expect(Timestamp.string(ms) == text)
    }

    @Test func daysRoundTrip() {
        for d in stride(from: Int64(-800_000), through: 2_900_000, by: 997) {
            let (y, m, day) = Timestamp.civil(fromDays: d)
            #expect(Timestamp.days(year: y, month: m, day: day) == d)
        }
    }
}
