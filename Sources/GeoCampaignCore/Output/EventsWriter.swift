/// Renders one user's visits as the enter/exit events of formats.md 3.2, in the order of
/// `CrossingEventOrder` (time, exits before enters, campaign id, region id).
public struct EventsWriter: Sendable {
    let campaigns: CampaignSet
    let order: CrossingEventOrder

    /// Prepares the event order of `campaigns`.
    public init(campaigns: CampaignSet) {
        self.campaigns = campaigns
        order = CrossingEventOrder(campaigns: campaigns.campaigns)
    }

    /// Appends the JSON Lines of `outcome`'s events (those in its event window) to `out` and returns how many were written.
    /// - Complexity: O(v log v) for v visits.
    @discardableResult
    public func append(_ outcome: UserOutcome, to out: inout [UInt8]) -> Int {
        var events = order.events(visitsByCampaign: outcome.visits)
        if outcome.eventsFrom != .min || outcome.eventsBefore != .max {
            events.removeAll { $0.time < outcome.eventsFrom || $0.time >= outcome.eventsBefore }
        }
        for e in events {
            let campaign = campaigns.campaigns[Int(e.campaign)]
            out.append(contentsOf: e.kind == .enter ? #"{"type":"enter","user":"#.utf8 : #"{"type":"exit","user":"#.utf8)
            JSONText.appendString(outcome.userId, to: &out)
            out.append(contentsOf: #","campaign":"#.utf8)
            JSONText.appendString(campaign.id, to: &out)
            out.append(contentsOf: #","region":"#.utf8)
            JSONText.appendString(campaign.regions[Int(e.visit.region)].id, to: &out)
            out.append(contentsOf: #","time":""#.utf8)
            Timestamp.append(e.time, to: &out)
            out.append(0x22)
            if e.kind == .exit {
                out.append(contentsOf: #","enter":""#.utf8)
                Timestamp.append(e.visit.enter, to: &out)
                out.append(contentsOf: #"","duration_s":"#.utf8)
                Self.appendSeconds(e.visit.duration, to: &out)
                out.append(contentsOf: #","reason":""#.utf8)
                out.append(contentsOf: (e.visit.reason ?? .left).rawValue.utf8)
                out.append(0x22)
            }
            out.append(contentsOf: "}\n".utf8)
        }
        return events.count
    }

    /// Appends milliseconds as seconds: an integer when whole, else with up to three decimals.
    public static func appendSeconds(_ ms: Int64, to out: inout [UInt8]) {
        if ms < 0 { out.append(0x2D) }
        let a = ms.magnitude
        out.append(contentsOf: String(a / 1000).utf8)
        var frac = a % 1000
        if frac != 0 {
            out.append(0x2E)
            var digits = 3
            while frac % 10 == 0 { frac /= 10; digits -= 1 }
            let s = String(frac)
            out.append(contentsOf: repeatElement(UInt8(0x30), count: digits - s.count))
            out.append(contentsOf: s.utf8)
        }
    }
}
