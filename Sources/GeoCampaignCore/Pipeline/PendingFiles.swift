/// The output files of one run, put in place together at its end (state.md 1.4): a run that
/// fails before `commit` leaves every one of them as it was.
public final class PendingFiles {
    private var commits: [() throws -> Void] = []
    private var discards: [() -> Void] = []

    /// Creates an empty list.
    public init() {}

    /// Adds a file: `commit` puts it in place, `discard` drops it.
    public func add(commit: @escaping () throws -> Void, discard: @escaping () -> Void) {
        commits.append(commit)
        discards.append(discard)
    }

    /// Puts every file in place, in the order they were added.
    public func commit() throws {
        let list = commits
        commits = []
        discards = []
        for c in list { try c() }
    }

    /// Drops every file not yet committed.
    public func discard() {
        let list = discards
        commits = []
        discards = []
        for d in list { d() }
    }

    deinit { discard() }
}
