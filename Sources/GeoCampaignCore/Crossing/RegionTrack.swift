/// The enter/exit state machine of one user in one region within a segment (semantics.md 2.3).
/// Outside with no candidate is the absence of a track; a track exists only while something is
/// pending or the user is inside.
struct RegionTrack {
    /// States other than plain outside.
    enum State: Equatable {
        /// Outside, with an enter candidate at `t0`.
        case entering(t0: Int64)
        /// Inside since `enter`; `last` is the last IN or BAND fix.
        case inside(enter: Int64, last: Int64)
        /// Inside since `enter` with an exit candidate at `t0`. The candidate's time stands for the
        /// visit's end while it pends (gap, open); BAND fixes hold it and only an IN fix drops it,
        /// which makes that IN fix the last one seen, so no earlier IN/BAND time is needed.
        case exiting(enter: Int64, t0: Int64)
    }

    /// What one fix did to the track.
    enum Step {
        /// The track continues (state may have changed).
        case stay
        /// Back to plain outside; the track can be dropped. Carries the visit an exit closed, if any.
        case done(Visit?)
    }

    let region: Int32
    var state: State
    /// Fix counter stamp of the last fix that classified this region (to find regions the index
    /// did not return, which are OUT for that fix).
    var stamp: Int

    /// Advances by one used fix of class `c` at time `t`.
    mutating func advance(_ c: FixClass, at t: Int64, confirmMs: Int64) -> Step {
        switch state {
        case let .entering(t0):
            if c == .outside { return .done(nil) }
            if t >= t0 + confirmMs { state = .inside(enter: t0, last: t) }
            return .stay
        case let .inside(enter, _):
            switch c {
            case .inside, .band:
                state = .inside(enter: enter, last: t)
                return .stay
            case .outside:
                if confirmMs == 0 { return .done(closed(enter: enter, exit: t, reason: .left)) }
                state = .exiting(enter: enter, t0: t)
                return .stay
            }
        case let .exiting(enter, t0):
            switch c {
            case .inside:
                state = .inside(enter: enter, last: t)
                return .stay
            case .band, .outside:
                if t >= t0 + confirmMs { return .done(closed(enter: enter, exit: t0, reason: .left)) }
                return .stay
            }
        }
    }

    /// The visit a segment end (a gap) closes, if the user is inside.
    func closedByGap() -> Visit? {
        switch state {
        case .entering: return nil
        case let .inside(enter, last): return closed(enter: enter, exit: last, reason: .gap)
        case let .exiting(enter, t0): return closed(enter: enter, exit: t0, reason: .gap)
        }
    }

    /// The open visit at the end of the history, if the user is inside.
    func open() -> Visit? {
        switch state {
        case .entering: return nil
        case let .inside(enter, last): return Visit(region: region, enter: enter, exit: nil, lastSeen: last, reason: nil)
        case let .exiting(enter, t0): return Visit(region: region, enter: enter, exit: nil, lastSeen: t0, reason: nil)
        }
    }

    private func closed(enter: Int64, exit: Int64, reason: ExitReason) -> Visit {
        Visit(region: region, enter: enter, exit: exit, lastSeen: exit, reason: reason)
    }

    /// A track for a region where plain outside meets an IN fix: an enter candidate, confirmed at
    /// once when `confirm` is 0.
    static func start(region: Int32, at t: Int64, confirmMs: Int64, stamp: Int) -> RegionTrack {
        RegionTrack(region: region, state: confirmMs == 0 ? .inside(enter: t, last: t) : .entering(t0: t), stamp: stamp)
    }
}
