import Foundation

/// Loads campaigns for a command, printing every diagnostic on stderr.
public enum CampaignLoading {
    /// Loads `paths`; throws exit 66 when a named path cannot be read, 65 when any file has errors.
    /// - Parameter hashesSources: see `CampaignLoader.hashesSources` (a stateful run's load).
    public static func load(_ paths: [String], hashesSources: Bool = false) throws -> LoadResult {
        try report(loadQuietly(paths, hashesSources: hashesSources))
    }

    /// Loads `paths` without printing or throwing anything: `report` does, later (a stateful
    /// run loads its campaigns beside opening its state, and tells the state's errors first).
    public static func loadQuietly(_ paths: [String], hashesSources: Bool = false) -> LoadResult {
        CampaignLoader(hashesSources: hashesSources).load(paths: paths)
    }

    /// Prints `result`'s diagnostics on stderr and throws as `load` does; returns `result`.
    @discardableResult
    public static func report(_ result: LoadResult) throws -> LoadResult {
        for d in result.diagnostics { Console.err(d.description + "\n") }
        try check(result)
        if result.hasErrors {
            let n = result.errorCount
            throw RunError.data("the campaigns have \(n) error\(n == 1 ? "" : "s"); fix them first ('geocampaign validate' lists them)")
        }
        lastLoaded.keep(result.campaignSet)
        return result
    }

    /// Throws exit 66 when a campaign path cannot be opened (its diagnostic names it).
    public static func check(_ result: LoadResult) throws {
        if !result.unreadablePaths.isEmpty { throw RunError.reported(status: 66) }
    }

    /// From now on, the last campaign set `load` returned stays referenced until the process
    /// exits (each load replaces the one kept before, so a process that loads again, like
    /// `stream` on a change, holds at most one more set than it uses). For the command-line
    /// tool, whose process ends with its command: freeing 100,000 regions piece by piece on
    /// the way out (one region's id, tags and rings at a time) took 10-30 ms of a run's wall
    /// time, and the process's memory goes back to the system at exit anyway. Off by default,
    /// so tests and any other process that goes on free each set when its run is done.
    public static func keepLastSetUntilExit() { lastLoaded.enable() }

    private static let lastLoaded = KeptSet()

    /// The set kept until exit, behind a lock (loads may run on any thread).
    private final class KeptSet: @unchecked Sendable {
        private let lock = NSLock()
        private var enabled = false
        private var set: CampaignSet?

        func enable() {
            lock.lock()
            enabled = true
            lock.unlock()
        }

        func keep(_ s: CampaignSet) {
            lock.lock()
            // The one kept before is released after the lock (its regions freed outside it).
            var old: CampaignSet?
            if enabled {
                old = set
                set = s
            }
            lock.unlock()
            withExtendedLifetime(old) {}
        }
    }
}
