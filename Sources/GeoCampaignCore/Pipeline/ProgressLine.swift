import Foundation

/// A one-line progress display on stderr for long runs: only on a terminal, never with `--quiet`,
/// and only once a run has taken more than a second. Redrawn at most five times a second.
public final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    /// The stage `rate` last reported and when it began.
    private var rateStage = ""
    private var rateStart = Date()
    /// While held nothing is drawn (another thread may be printing diagnostics).
    private var held = false

    /// Creates a display; it draws nothing unless stderr is a terminal and `quiet` is false.
    public init(quiet: Bool) {
        enabled = !quiet && isatty(2) != 0
    }

    /// Draws nothing until `release`.
    public func hold() {
        lock.lock()
        held = true
        lock.unlock()
    }

    /// Ends `hold`.
    public func release() {
        lock.lock()
        held = false
        lock.unlock()
    }

    /// Reports `done` of `total` (total 0 = unknown) in `unit`s for the stage `stage`.
    public func update(_ stage: String, done: Int, total: Int, unit: Unit) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard !held, elapsed > 1, now.timeIntervalSince(lastDraw) > 0.2 || (total > 0 && done >= total) else { return }
        lastDraw = now
        var s = "\(stage): " + unit.format(done)
        if total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            s += " of \(unit.format(total)) (\(Int(fraction * 100))%)"
        }
        Console.err("\r\u{1B}[K" + s)
        drawn = true
    }

    /// Reports a rate line: fixes per second since the start and an ETA from the fraction done.
    public func rate(_ stage: String, fixes: Int, fraction: Double) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if stage != rateStage {
            rateStage = stage
            rateStart = now
        }
        guard !held, now.timeIntervalSince(start) > 1, now.timeIntervalSince(rateStart) > 0.2, now.timeIntervalSince(lastDraw) > 0.2 else { return }
        lastDraw = now
        let elapsed = max(0.001, now.timeIntervalSince(rateStart))
        var s = "\(stage): \(Int(fraction * 100))%, " + String(format: "%.2fM fixes/s", Double(fixes) / elapsed / 1e6)
        if fraction > 0.01 && fraction < 1 { s += ", ETA " + String(format: "%.0f s", elapsed / fraction - elapsed) }
        Console.err("\r\u{1B}[K" + s)
        drawn = true
    }

    /// Clears the line before the summary is printed.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { Console.err("\r\u{1B}[K") }
        drawn = false
    }

    /// How to print a count.
    public enum Unit {
        case bytes
        case users

        public func format(_ n: Int) -> String {
            switch self {
            case .bytes: return n >= 1 << 30 ? String(format: "%.2f GB", Double(n) / 1_073_741_824) : String(format: "%.1f MB", Double(n) / 1_048_576)
            case .users: return "\(n) users"
            }
        }
    }
}
