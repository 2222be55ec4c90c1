/// Renders one user's visits as the enter/exit events of formats.md 3.2, ordered by time, then
/// exits before enters, then campaign id, then region id (byte order).
public enum EventsWriter {
    private struct Event {
        var time: Int64
        var isEnter: Bool
        var campaign: Int
        var visit: Visit
    }

    /// Appends the JSON Lines of `outcome`'s events to `out` and returns how many were written.
    /// - Complexity: O(v log v) for v visits.
    @discardableResult
    public static func appendJSONLines(_ outcome: UserOutcome, campaigns: CampaignSet, to out: inout [UInt8]) -> Int {
        var events: [Event] = []
        for (c, visits) in outcome.visits.enumerated() {
            for v in visits {
                events.append(Event(time: v.enter, isEnter: true, campaign: c, visit: v))
                if let exit = v.exit { events.append(Event(time: exit, isEnter: false, campaign: c, visit: v)) }
            }
        }
        let list = campaigns.campaigns
        events.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.isEnter != b.isEnter { return !a.isEnter }
            if a.campaign != b.campaign {
                return list[a.campaign].id.utf8.lexicographicallyPrecedes(list[b.campaign].id.utf8)
            }
            let ra = list[a.campaign].regions[Int(a.visit.region)].id, rb = list[b.campaign].regions[Int(b.visit.region)].id
            if ra != rb { return ra.utf8.lexicographicallyPrecedes(rb.utf8) }
            return a.visit.enter < b.visit.enter
        }
        for e in events {
            let campaign = list[e.campaign]
            out.append(contentsOf: e.isEnter ? #"{"type":"enter","user":"#.utf8 : #"{"type":"exit","user":"#.utf8)
            JSONText.appendString(outcome.userId, to: &out)
            out.append(contentsOf: #","campaign":"#.utf8)
            JSONText.appendString(campaign.id, to: &out)
            out.append(contentsOf: #","region":"#.utf8)
            JSONText.appendString(campaign.regions[Int(e.visit.region)].id, to: &out)
            out.append(contentsOf: #","time":""#.utf8)
            Timestamp.append(e.time, to: &out)
            out.append(0x22)
            if !e.isEnter {
                out.append(contentsOf: #","enter":""#.utf8)
                Timestamp.append(e.visit.enter, to: &out)
                out.append(contentsOf: #"","duration_s":"#.utf8)
                appendSeconds(e.visit.duration, to: &out)
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
