/// The `regions`/`tags` of a condition: a region matches if its id is listed or it has a listed tag.
public struct RegionSelector: Sendable, Equatable {
    /// Listed region ids.
    public var regions: [String]
    /// Listed tags.
    public var tags: [String]

    /// Creates a selector.
    public init(regions: [String] = [], tags: [String] = []) {
        self.regions = regions
        self.tags = tags
    }

    /// Whether `region` matches this selector.
    public func matches(_ region: Region) -> Bool {
        regions.contains(region.id) || region.tags.contains { tags.contains($0) }
    }
}
