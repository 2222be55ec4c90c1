/// The crossing's state of one user between two runs (state.md 1): where each tracking group's
/// segment stands and every region track still pending or inside, as RegionTrack-level values
/// keyed by campaign and the campaign's region index (not by the compiled order or the index).
///
/// A run resumed from it over the next fixes gives the visits one run over all fixes would.
public struct CrossingResume: Sendable, Equatable {
    /// The last used fix of one tracking group, keyed by its segmenting parameters.
    public struct GroupLast: Sendable, Equatable {
        /// `max_accuracy` of the group (bit pattern of the meters).
        public var maxAccuracyBits: UInt64
        /// `max_gap` of the group.
        public var maxGapMs: Int64
        /// Time of the group's last used fix.
        public var last: Int64

        /// Creates an entry.
        public init(maxAccuracyBits: UInt64, maxGapMs: Int64, last: Int64) {
            self.maxAccuracyBits = maxAccuracyBits
            self.maxGapMs = maxGapMs
            self.last = last
        }
    }

    /// One region track (`RegionTrack.State`).
    public struct Track: Sendable, Equatable {
        /// What the track holds.
        public enum Kind: UInt8, Sendable {
            /// An enter candidate at `a`.
            case entering = 0
            /// Inside since `a`, last IN or BAND fix at `b`.
            case inside = 1
            /// Inside since `a`, exit candidate at `b`.
            case exiting = 2
        }

        /// Campaign index in the campaign set.
        public var campaign: Int32
        /// Region index in that campaign.
        public var region: Int32
        /// The state.
        public var kind: Kind
        /// See `kind`.
        public var a: Int64
        /// See `kind` (0 for `entering`).
        public var b: Int64

        /// Creates a track.
        public init(campaign: Int32, region: Int32, kind: Kind, a: Int64, b: Int64) {
            self.campaign = campaign
            self.region = region
            self.kind = kind
            self.a = a
            self.b = b
        }

        /// The earliest instant a later fix can still change for this track (state.md 1.1): a
        /// pending enter candidate's time, else an open visit's exit candidate or last IN/BAND fix.
        public var horizon: Int64 {
            switch kind {
            case .entering: return a
            case .inside, .exiting: return b
            }
        }
    }

    /// Groups that have seen a used fix.
    public var groups: [GroupLast]
    /// Tracks of segments not ended by the silence rule.
    public var tracks: [Track]

    /// Nothing seen yet.
    public init(groups: [GroupLast] = [], tracks: [Track] = []) {
        self.groups = groups
        self.tracks = tracks
    }
}
