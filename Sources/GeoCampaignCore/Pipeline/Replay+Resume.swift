extension Replay {
    /// What the one engine needs beyond the campaigns to resume users (built once per run).
    public struct ResumeContext: Sendable {
        /// Per campaign, per region: the compiled region index (`CampaignCrossing.compiledIndices`).
        let compiled: [[Int32]]
        /// Per campaign: how long a closed visit can still matter (`StateHorizon.visitReach`).
        let visitReach: [Int64?]
        /// How long a delivered or held-out decision can still count.
        let decisionReach: Int64?
    }

    /// The context for `resume` over this replay's campaigns.
    public func resumeContext() -> ResumeContext {
        ResumeContext(compiled: crossing.compiledIndices(), visitReach: campaigns.campaigns.map(StateHorizon.visitReach),
                      decisionReach: StateHorizon.decisionReach(campaigns))
    }

    /// One user's run from a state: the outcome to print and the state after it.
    public struct Resumed: Sendable {
        /// The decisions settled by this run (`time` in `[old settled, new settled)`, or every
        /// one not yet printed with `final`), the visits their evidence indexes, and the event
        /// window of the events settled by this run.
        public var outcome: UserOutcome
        /// The user's state after this run.
        public var state: UserState
        /// Events in the window (for the summary).
        public var events: Int
    }

    /// Continues one user from `state` (nil: a new user) over `batch`, the user's new fixes in
    /// time order, none earlier than `state.tEnd` (late fixes are rejected before). Crossing,
    /// rules and arbitration are the one-shot engine's, resumed: the decisions printed by a
    /// sequence of runs equal one run's over all the fixes (state.md 1.1).
    /// - Parameter final: the history is complete: print every held decision and event.
    /// - Complexity: as `outcome` over the batch, plus the visits and decisions kept in the state.
    public func resume(userId: String, state: UserState?, batch: [Fix], final: Bool, context: ResumeContext) -> Resumed? {
        resume(userId: userId, state: state, batch: batch, final: final, context: context, evaluators: evaluators, arbiter: arbiter)
    }

    /// As `resume`, with a worker's own evaluators and arbiter.
    func resume(userId: String, state: UserState?, batch: [Fix], final: Bool, context: ResumeContext,
                evaluators: [RuleEvaluator], arbiter: Arbiter) -> Resumed? {
        batch.withUnsafeBufferPointer {
            resume(userId: userId, state: state, batch: $0, final: final, context: context, evaluators: evaluators, arbiter: arbiter)
        }
    }

    /// As `resume(userId:state:batch:final:context:evaluators:arbiter:)`, over fixes in a buffer
    /// (valid during the call), as the one-shot replay reads them from the packed history.
    ///
    /// `state` is consumed: the caller that passes its last copy (`consume`) lets the state's
    /// arrays be changed in place. (Borrowed, each array that this run changes, the crossing's
    /// tracks, the seeds, the campaigns' parts, was copied before its first change, the caller's
    /// copy still holding the original, and both were freed afterwards.)
    func resume(userId: String, state: consuming UserState?, batch: UnsafeBufferPointer<Fix>, final: Bool, context: ResumeContext,
                evaluators: [RuleEvaluator], arbiter: Arbiter) -> Resumed? {
        var st: UserState
        switch consume state {
        case .some(let s): st = s
        case .none:
            guard let first = batch.first else { return nil }
            st = UserState(t0: first.time, campaignCount: campaigns.campaigns.count)
        }
        let before = st.settled
        if let first = batch.first {
            for c in st.campaigns.indices where st.campaigns[c].t0 == nil { st.campaigns[c].t0 = first.time }
        }
        if let last = batch.last { st.tEnd = max(st.tEnd, last.time) }
        let tEnd = st.tEnd
        let fresh = crossing.visits(fixes: batch, tEnd: tEnd, resume: &st.crossing, compiled: context.compiled)

        // Every campaign's visits as one run would see them: the closed ones kept, then this run's.
        var visits = fresh
        // Mostly already in order (the kept visits closed before this batch, the fresh ones
        // entered after them): then the sort, which would leave them as they are, is skipped.
        let precedes = { (a: Visit, b: Visit) in (a.enter, a.region, a.exit ?? .max) < (b.enter, b.region, b.exit ?? .max) }
        for c in visits.indices where !st.campaigns[c].visits.isEmpty {
            // The kept visits' array, taken from the state (it is replaced below), takes the fresh
            // ones in place when the record's decoding left it room (`UserState.decoded`).
            var combined = st.campaigns[c].visits
            st.campaigns[c].visits = []
            combined.append(contentsOf: fresh[c])
            visits[c] = combined
            if zip(visits[c], visits[c].dropFirst()).contains(where: { precedes($1, $0) }) { visits[c].sort(by: precedes) }
        }
        var triggers: [Trigger] = []
        if options.evaluateRules {
            for (c, v) in visits.enumerated() where !v.isEmpty || campaignMayFireWithoutVisits[c] {
                guard let t0 = st.campaigns[c].t0 else { continue }
                // Triggers before the old horizon were decided by earlier runs.
                triggers += evaluators[c].triggers(visits: v, t0: t0, tEnd: tEnd, from: before)
            }
        }
        let prior = st.seeds
        let decisions = triggers.isEmpty ? [] : arbiter.decide(userId: userId, triggers: triggers, prior: prior)

        // The new horizon S_u (state.md 1.1): Tend, pending candidates, open visits' last IN/BAND fixes.
        var settled = max(before, st.crossing.tracks.reduce(tEnd) { min($0, $1.horizon) })
        if final { settled = .max }
        // Usually every decision is settled: then the array is not copied.
        let printed = decisions.allSatisfy { $0.trigger.time < settled } ? decisions : decisions.filter { $0.trigger.time < settled }
        st.held = decisions.count - printed.count

        // What a later run can still see: delivered and held-out decisions within the longest
        // cap or limit period, closed visits within their campaign's reach. The seeds, shared
        // with `prior`, are copied only when one goes or comes.
        let horizon = final ? tEnd : settled
        let matters = { (time: Int64) in StateHorizon.matters(end: time, reach: context.decisionReach, at: horizon) }
        if st.seeds.contains(where: { !matters($0.time) }) { st.seeds.removeAll { !matters($0.time) } }
        for d in printed where (d.status == .delivered || d.status == .heldOut) && matters(d.trigger.time) {
            let c = campaigns.campaigns[d.trigger.campaign]
            let rule = c.rules[d.trigger.rule]
            st.seeds.append(Arbiter.Seed(time: d.trigger.time, delivered: d.status == .delivered, campaignId: c.id,
                                         offerId: rule.offer, ruleId: rule.id))
        }
        for c in visits.indices {
            let reach = context.visitReach[c]
            let kept = { (v: Visit) in v.exit.map { StateHorizon.matters(end: $0, reach: reach, at: horizon) } ?? false }
            // Every visit kept (closed, and within reach): the outcome's array is shared, not copied.
            st.campaigns[c].visits = visits[c].allSatisfy(kept) ? visits[c] : visits[c].filter(kept)
        }
        st.settled = final ? tEnd : settled

        var outcome = UserOutcome(userId: userId, fixCount: batch.count, t0: st.t0, tEnd: tEnd, visits: visits,
                                  triggers: triggers, decisions: printed)
        outcome.prior = prior
        outcome.eventsFrom = before
        outcome.eventsBefore = settled
        let events = visits.reduce(0) { n, vs in
            n + vs.reduce(0) { k, v in
                k + (v.enter >= before && v.enter < settled ? 1 : 0) + (v.exit.map { $0 >= before && $0 < settled ? 1 : 0 } ?? 0)
            }
        }
        return Resumed(outcome: outcome, state: st, events: events)
    }
}
