/// A region of a campaign: a circle or a polygon (with holes, possibly several parts), with tags
/// and optional per-region overrides of `hysteresis` and `confirm` (formats.md 1.2).
public struct Region: Sendable {
    /// Region id, unique within the campaign.
    public var id: String
    /// Optional display name.
    public var name: String?
    /// Tags, including those added by an import entry.
    public var tags: [String]
    /// The geometry.
    public var shape: Shape
    /// Per-region hysteresis override in meters.
    public var hysteresisM: Double?
    /// Per-region confirm override in milliseconds.
    public var confirmMs: Int64?

    /// Creates a region.
    public init(id: String, name: String? = nil, tags: [String] = [], shape: Shape,
                hysteresisM: Double? = nil, confirmMs: Int64? = nil) {
        self.id = id
        self.name = name
        self.tags = tags
        self.shape = shape
        self.hysteresisM = hysteresisM
        self.confirmMs = confirmMs
    }
}
