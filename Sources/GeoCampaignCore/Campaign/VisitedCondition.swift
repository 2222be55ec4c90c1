/// `visited`: at least N qualifying visits (or N distinct regions) in the trailing window.
///
///     when:
///       visited: { tags: [car-dealer], at_least: 3, distinct: true, within: 72h, min_dwell: 5m }
public struct VisitedCondition: Sendable {
    /// The matching regions.
    public var selector: RegionSelector
    /// Minimum count, >= 1 (default 1).
    public var atLeast: Int
    /// Count different regions rather than visits.
    public var distinct: Bool
    /// Trailing window in milliseconds; nil = unbounded.
    public var withinMs: Int64?
    /// Minimum visit duration in milliseconds (default 0).
    public var minDwellMs: Int64

    /// Creates the condition.
    public init(selector: RegionSelector, atLeast: Int = 1, distinct: Bool = false, withinMs: Int64? = nil, minDwellMs: Int64 = 0) {
        self.selector = selector
        self.atLeast = atLeast
        self.distinct = distinct
        self.withinMs = withinMs
        self.minDwellMs = minDwellMs
    }
}
