/// What `--state-info` prints (state.md 1.3): runs, users, campaigns with their fingerprints,
/// held decisions, and size.
public enum StateInfo {
    /// The report on the state at `path`.
    /// - Throws: `RunError.noInput` when there is no state there; the errors of `StateStore`.
    public static func text(path: String) throws -> String {
        // It may read while a stream commits: wait for the commit rather than fail.
        let store = try StateStore(path: path, create: false, busyTimeoutMs: 2000)
        let runs = try store.meta("runs") ?? "0"
        var s = "state: \(path)\nschema version: \(StateStore.schemaVersion)\n"
        s += "command: \(try store.meta("command") ?? "none yet")\nruns: \(runs)\n"
        if let latest = try store.latestRun() { s += "latest run: \(latest.run) at \(latest.at), batch \(latest.batch)\n" }
        if let at = try store.meta("final_at") { s += "final: yes, since run \(try store.meta("final_run") ?? "?") at \(at)\n" } else { s += "final: no\n" }
        if let lines = try store.meta("stream_lines") { s += "stream: \(lines) lines committed, at byte \(try store.meta("stream_offset") ?? "0")\n" }
        let totals = try store.userTotals()
        s += "users: \(totals.users)\nheld decisions: \(totals.held)\n"
        let campaigns = try store.campaigns()
        s += "campaigns: \(campaigns.count)\n"
        for c in campaigns { s += "  \(c.id)  fingerprint \(c.fingerprint)  since run \(c.sinceRun)\n" }
        let size = try store.sizeBytes()
        s += "size: \(size) bytes (user records \(totals.recordBytes) bytes"
        if totals.users > 0 { s += ", \(size / totals.users) bytes per user" }
        s += ")\n"
        s += "content digest: \(try store.contentDigest())\n"
        return s
    }
}
