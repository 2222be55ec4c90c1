/// What a numeric timestamp counts from 1970-01-01T00:00:00Z (`--ts-format`): seconds, the
/// contract's default (formats.md 2.1), or milliseconds.
public enum EpochUnit: String, Sendable, CaseIterable {
    /// Unix epoch seconds, fractions allowed (`epoch_s`).
    case seconds = "epoch_s"
    /// Unix epoch milliseconds, fractions rounded to the millisecond (`epoch_ms`).
    case milliseconds = "epoch_ms"

    /// The power of ten that turns a value in this unit into milliseconds.
    var millisecondScale: Int { self == .seconds ? 3 : 0 }

    /// The unit's name in reject details.
    var noun: String { self == .seconds ? "epoch seconds" : "epoch milliseconds" }
}
