import Foundation

/// Wall time of each stage of a command, for the summary and the benchmark.
struct StageClock {
    private let start = Date()
    private var last = Date()
    private(set) var stages: [(String, Double)] = []

    /// Ends the current stage under `name`.
    mutating func lap(_ name: String) {
        let now = Date()
        stages.append((name, now.timeIntervalSince(last)))
        last = now
    }

    /// Seconds since the command started.
    var total: Double { Date().timeIntervalSince(start) }

    /// "stages: campaigns 0.012 s, read 0.301 s, replay 1.204 s"
    var line: String {
        "stages: " + stages.map { "\($0.0) " + String(format: "%.3f s", $0.1) }.joined(separator: ", ")
    }
}
