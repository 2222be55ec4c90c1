/// How one condition (or sub-condition) fared for one user, in numbers and in words: where it held
/// and, when it never did, where it came closest (`geocampaign explain`, cli.md).
///
///     kind: .visited, held: [], achieved: 2, required: 3, regions: ["dealer-1", "dealer-7"]
///     description: "2 of 3 distinct car-dealer regions within 72h: dealer-1, dealer-7"
public struct ConditionReport: Sendable, Equatable {
    /// The condition kinds of semantics 3.
    public enum Kind: String, Sendable {
        /// `inside` (semantics 3.1).
        case inside
        /// `visited` (3.2).
        case visited
        /// `dwelled` (3.3).
        case dwelled
        /// `sequence` (3.4).
        case sequence
        /// `during` (3.5).
        case during
        /// `all` (3.6).
        case all
        /// `any` (3.6).
        case any
        /// `not` (3.6).
        case not
    }

    /// Which kind of condition this is.
    public var kind: Kind
    /// Where the condition held on the user's timeline (before the campaign's `active` window).
    public var held: [Interval]
    /// The best count reached: visits or regions for `visited`, steps matched for `sequence`,
    /// parts holding together for `all`; nil where counting does not apply.
    public var achieved: Int?
    /// The count needed (`at_least`, the number of steps or parts); nil where counting does not apply.
    public var required: Int?
    /// The best duration reached: the longest stay for `dwelled` (and for a `min_dwell` nobody
    /// met), the shortest first-to-last span of a complete `sequence`; nil otherwise.
    public var bestMs: Int64?
    /// The duration to beat: `over`, `min_dwell` or `within`; nil otherwise.
    public var thresholdMs: Int64?
    /// Region ids of the closest attempt (or of the visits that made it hold).
    public var regions: [String]
    /// One sentence a marketer can read.
    public var description: String
    /// Reports of the parts of `all`, `any` and `not`, in order.
    public var parts: [ConditionReport]

    /// Creates a report.
    public init(kind: Kind, held: [Interval], achieved: Int? = nil, required: Int? = nil, bestMs: Int64? = nil,
                thresholdMs: Int64? = nil, regions: [String] = [], description: String, parts: [ConditionReport] = []) {
        self.kind = kind
        self.held = held
        self.achieved = achieved
        self.required = required
        self.bestMs = bestMs
        self.thresholdMs = thresholdMs
        self.regions = regions
        self.description = description
        self.parts = parts
    }

    /// Whether the condition held at some instant of the timeline.
    public var everHeld: Bool { !held.isEmpty }
}
