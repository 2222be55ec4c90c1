/// "N per DURATION", or "N" (N in the user's lifetime): used by offer caps and `limits.per_user`.
public struct Cap: Sendable, Equatable {
    /// N >= 1.
    public var count: Int
    /// The window in milliseconds; nil = lifetime.
    public var perMs: Int64?
    /// Creates a cap.
    public init(count: Int, perMs: Int64? = nil) {
        self.count = count
        self.perMs = perMs
    }
}
