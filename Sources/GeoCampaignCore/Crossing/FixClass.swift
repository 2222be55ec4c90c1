/// The class of a used fix for one region (semantics.md 2.1).
public enum FixClass: UInt8, Sendable {
    /// `d >= h`: clearly inside.
    case inside
    /// `-h < d < h`: too close to the boundary to say.
    case band
    /// `d <= -h`: clearly outside.
    case outside

    /// Classifies a signed depth `d` (meters) under hysteresis `h` (meters).
    @inlinable public init(depthM d: Double, hysteresisM h: Double) {
        self = d >= h ? .inside : (d <= -h ? .outside : .band)
    }
}
