extension CaseContext {
    /// One user's replay: the outcome (nil without fixes) and, made only when needed, the explanation.
    final class UserRun {
        let user: String
        let fixes: [Fix]
        let outcome: UserOutcome?
        private let replay: Replay
        private let zones: [LocalTimeFormat]
        private lazy var explained: UserExplanation? = replay.explain(userId: user, fixes: fixes, time: zones)

        init(user: String, fixes: [Fix], replay: Replay, zone: LocalTimeFormat) {
            self.user = user
            self.fixes = fixes
            self.replay = replay
            zones = replay.campaigns.campaigns.map { _ in zone }
            outcome = fixes.isEmpty ? nil : replay.outcome(userId: user, fixes: fixes)
        }

        var explanation: UserExplanation? { explained }
    }
}
