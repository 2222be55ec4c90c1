/// `sequence`: visits matching each step, in order, within a window.
///
///     when:
///       sequence:
///         steps:
///           - { regions: [gym], min_dwell: 30m }
///           - { regions: [juice-bar] }
///         within: 2h
public struct SequenceCondition: Sendable {
    /// One step of a sequence.
    public struct Step: Sendable {
        /// The matching regions.
        public var selector: RegionSelector
        /// Minimum visit duration in milliseconds.
        public var minDwellMs: Int64
        /// Creates a step.
        public init(selector: RegionSelector, minDwellMs: Int64 = 0) {
            self.selector = selector
            self.minDwellMs = minDwellMs
        }
    }
    /// Two or more steps.
    public var steps: [Step]
    /// Window in milliseconds (required).
    public var withinMs: Int64
    /// Creates the condition.
    public init(steps: [Step], withinMs: Int64) {
        self.steps = steps
        self.withinMs = withinMs
    }
}
