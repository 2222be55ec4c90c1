/// One exposed user of one campaign (measurement.md 2): when the user was first decided on, in
/// which arm, and whether a goal visit followed within the goal's window.
public struct Exposure: Sendable, Equatable {
    /// The time of the user's first decision of the campaign (any status), Unix ms.
    public var time: Int64
    /// In the campaign's holdout (semantics 4.2), whatever the decisions' statuses: intent to treat.
    public var heldOut: Bool
    /// A goal visit with `time < enter <= time + within` and `duration >= min_dwell`.
    public var converted: Bool

    /// Creates an exposure.
    public init(time: Int64, heldOut: Bool, converted: Bool) {
        self.time = time
        self.heldOut = heldOut
        self.converted = converted
    }

    /// Whether a visit list holds a conversion for an exposure at `time`.
    /// - Parameters:
    ///   - visits: the user's visits of the campaign, sorted by enter.
    ///   - isGoal: per region of the campaign, whether it is a goal region.
    /// - Complexity: O(v) for v visits.
    public static func converts(after time: Int64, visits: [Visit], isGoal: [Bool], goal: Goal) -> Bool {
        let end = time + goal.withinMs
        for v in visits {
            if v.enter > end { break }
            if v.enter > time && isGoal[Int(v.region)] && v.duration >= goal.minDwellMs { return true }
        }
        return false
    }
}
