/// The settings file (formats.md 1.5).
public struct Settings: Sendable {
    /// `limits.per_user`: deliveries to one user across all offers (semantics 4.3).
    public var perUserLimit: Cap?
    /// Global tracking defaults (over the built-in defaults).
    public var tracking: Tracking
    /// Creates settings.
    public init(perUserLimit: Cap? = nil, tracking: Tracking = Tracking()) {
        self.perUserLimit = perUserLimit
        self.tracking = tracking
    }
}
