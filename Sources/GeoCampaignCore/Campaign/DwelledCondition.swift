/// `dwelled`: the current visit of a matching region has lasted strictly more than `over`.
///
///     when:
///       dwelled: { regions: [lorrenzillos], over: 30m }
public struct DwelledCondition: Sendable {
    /// The matching regions.
    public var selector: RegionSelector
    /// Threshold in milliseconds.
    public var overMs: Int64
    /// Creates the condition.
    public init(selector: RegionSelector, overMs: Int64) {
        self.selector = selector
        self.overMs = overMs
    }
}
