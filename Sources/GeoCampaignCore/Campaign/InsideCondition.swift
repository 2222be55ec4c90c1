/// `inside: { regions|tags }`: holds while the user is in a matching region.
///
///     when:
///       inside: { tags: [competitor] }
public struct InsideCondition: Sendable {
    /// The matching regions.
    public var selector: RegionSelector
    /// Creates the condition.
    public init(selector: RegionSelector) { self.selector = selector }
}
