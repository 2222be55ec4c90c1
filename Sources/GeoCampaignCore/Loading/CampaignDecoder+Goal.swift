extension CampaignDecoder {
    static let goalKeys = ["regions", "tags", "within", "min_dwell"]
    static let goalExample = "goal: { tags: [own-store], within: 7d, min_dwell: 5m }"

    /// Decodes a campaign's `goal` (measurement.md 1), checked as a rule's regions and durations
    /// are; nil after reporting its problems.
    func decodeGoal(_ node: YAMLNode, scope: CampaignScope) -> Goal? {
        guard let f = fields(node, "'goal'", example: Self.goalExample) else { return nil }
        checkKeys(f, known: Self.goalKeys, in: "the goal")
        let sel = selector(f, "goal", scope: scope)
        var within: Int64?
        if let n = f["within"] {
            if let v = duration(n, "within") {
                if v > 0 { within = v } else { error(n.mark, "within must be longer than 0s: how long after the first offer a visit counts, e.g. within: 7d") }
            }
        } else {
            error(f.key("within")?.mark ?? f.mark, "the goal needs 'within', how long after a user's first offer a visit counts as a conversion: e.g. \(Self.goalExample)")
        }
        var minDwell: Int64 = 0
        var ok = true
        if let n = f["min_dwell"] {
            if let v = duration(n, "min_dwell") { minDwell = v } else { ok = false }
        }
        guard ok, let sel, let within else { return nil }
        return Goal(selector: sel, withinMs: within, minDwellMs: minDwell)
    }

    /// Reports a `goal:` key with no value.
    func emptyGoal(_ mark: SourceMark) {
        error(mark, "'goal' is empty: say which visits count as a conversion, e.g. \(Self.goalExample), or remove it")
    }
}
