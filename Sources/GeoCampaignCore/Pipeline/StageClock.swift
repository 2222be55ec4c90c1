import Foundation

/// Wall time of each stage of a command, for the summary and the benchmark.
public struct StageClock {
    private let start = Date()
    private var last = Date()
    public private(set) var stages: [(name: String, seconds: Double, note: String)] = []

    /// Starts the clock now.
    public init() {}

    /// Ends the current stage under `name`.
    public mutating func lap(_ name: String) {
        let now = Date()
        stages.append((name, now.timeIntervalSince(last), ""))
        last = now
    }

    /// Records a stage that ran beside the others (on another thread) for `seconds`.
    public mutating func record(_ name: String, seconds: Double, during other: String) {
        stages.append((name, seconds, " (during \(other))"))
    }

    /// Seconds since the command started.
    public var total: Double { Date().timeIntervalSince(start) }

    /// "stages: campaigns 0.012 s (during read), read 0.301 s, replay 1.204 s"
    public var line: String {
        "stages: " + stages.map { "\($0.name) " + String(format: "%.3f s", $0.seconds) + $0.note }.joined(separator: ", ")
    }
}
