import Foundation

/// Collects the outcomes of a replay's worker threads into one tally: each user is added under a
/// lock (the work per user is small beside its replay).
public final class MeasurementCollector: @unchecked Sendable {
    /// The compiled plan.
    public let plan: MeasurementPlan
    private let lock = NSLock()
    private var tally: MeasurementTally

    /// Creates a collector for the plan's campaigns.
    public init(plan: MeasurementPlan) {
        self.plan = plan
        tally = plan.emptyTally()
    }

    /// Adds one user's outcome; safe from any thread.
    /// - Complexity: O(visits + triggers + decisions) of the user.
    public func add(_ o: UserOutcome) {
        lock.lock()
        plan.add(o, to: &tally)
        lock.unlock()
    }

    /// The figures of everything added so far.
    public func measurement(lines: Int) -> MeasurementResult {
        lock.lock()
        defer { lock.unlock() }
        return MeasurementResult(tally: tally, campaigns: plan.campaigns, lines: lines)
    }
}
