/// `during`: a weekly local wall-clock window.
///
///     when:
///       during: { days: [mon, tue, wed, thu, fri], hours: "11:30-14:00", timezone: America/Los_Angeles }
public struct DuringCondition: Sendable {
    /// Days as ISO weekday numbers, 1 = Monday ... 7 = Sunday; all seven when not given.
    public var days: Set<Int>
    /// Start of the window in minutes after local midnight, 0...1439.
    public var startMinute: Int
    /// End of the window in minutes after local midnight, 1...1440; at or before the start = past midnight.
    public var endMinute: Int
    /// Resolved IANA zone name (the condition's, else the campaign's `active.timezone`, else "UTC").
    public var timezone: String

    /// Creates the condition; the default is every day, all day, UTC.
    public init(days: Set<Int> = Set(1...7), startMinute: Int = 0, endMinute: Int = 1440, timezone: String = "UTC") {
        self.days = days
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.timezone = timezone
    }
}
