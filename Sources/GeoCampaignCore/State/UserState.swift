/// What a stateful run keeps of one user between runs (state.md 1): enough for the one engine
/// (crossing, rules, arbitration) to continue exactly where the last run stopped.
///
/// - the user's timeline: T0 (first accepted fix) and Tend (last one so far);
/// - `settled`: the horizon S_u after the last run; decisions and events before it were printed;
/// - the crossing's state at the end of the last segment (`CrossingResume`);
/// - per campaign: when its timeline starts for this user, and the closed visits a future
///   window, count, sequence or `not` can still see (open visits live in the crossing's tracks);
/// - the delivered and held-out decisions a cap or the per-user limit can still count.
///
/// Campaigns are numbered as in the run's campaign set; `UserState.Coding` maps them to the
/// state's campaign slots.
public struct UserState: Sendable, Equatable {
    /// One campaign's part.
    public struct CampaignPart: Sendable, Equatable {
        /// The start of the campaign's timeline for this user (T0, or the first fix after the
        /// campaign started afresh, state.md 1.3); nil until that fix arrives.
        public var t0: Int64?
        /// Closed visits that can still count, sorted by (enter, region, exit).
        public var visits: [Visit]

        /// Creates a part.
        public init(t0: Int64?, visits: [Visit] = []) {
            self.t0 = t0
            self.visits = visits
        }
    }

    /// First accepted fix of the user.
    public var t0: Int64
    /// Last accepted fix so far.
    public var tEnd: Int64
    /// The settled horizon after the last run (Int64.min before the first).
    public var settled: Int64
    /// Decisions held (time at or after `settled`), for `--state-info`.
    public var held: Int
    /// The crossing's state.
    public var crossing: CrossingResume
    /// Per campaign of the run's set.
    public var campaigns: [CampaignPart]
    /// Delivered and held-out decisions before `settled` that can still count, by time.
    public var seeds: [Arbiter.Seed]

    /// A user seen for the first time at `t0`.
    public init(t0: Int64, campaignCount: Int) {
        self.t0 = t0
        tEnd = t0
        settled = .min
        held = 0
        crossing = CrossingResume()
        campaigns = Array(repeating: CampaignPart(t0: t0), count: campaignCount)
        seeds = []
    }

    /// A state of the given parts (the record's decoding builds each part once, in place).
    init(t0: Int64, tEnd: Int64, settled: Int64, held: Int, crossing: CrossingResume, campaigns: [CampaignPart], seeds: [Arbiter.Seed]) {
        self.t0 = t0
        self.tEnd = tEnd
        self.settled = settled
        self.held = held
        self.crossing = crossing
        self.campaigns = campaigns
        self.seeds = seeds
    }
}
