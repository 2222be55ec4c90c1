/// Output formats of `evaluate` (formats.md 3.1).
public enum DecisionFormat: String, Sendable {
    /// One JSON object per line.
    case jsonl
    /// RFC 4180 CSV with a header; evidence as `;`-joined region ids.
    case csv
}
