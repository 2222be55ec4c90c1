import Foundation
import GeoCampaignCore

/// One user's events and decisions as lines for a person, in time order.
enum Timeline {
    struct Entry {
        var time: Int64
        var order: Int
        var text: String
    }

    /// Lines "TIME  what" (local TIME in `time`'s zone), exits before enters before decisions at the same instant.
    /// `reasons`, when given, holds each decision's reason in words (aligned with `o.decisions`),
    /// printed after a suppressed decision.
    static func lines(_ o: UserOutcome, campaigns: CampaignSet, includeSuppressed: Bool, time: LocalTimeFormat,
                      reasons: [String]? = nil) -> [String] {
        var entries: [Entry] = []
        for (c, visits) in o.visits.enumerated() {
            let campaign = campaigns.campaigns[c]
            for v in visits {
                let region = campaign.regions[Int(v.region)]
                let label = "\(campaign.id)/\(region.id)" + (region.name.map { " (\($0))" } ?? "")
                entries.append(Entry(time: v.enter, order: 1, text: "enter     \(label)"))
                if let exit = v.exit {
                    let why = v.reason == .gap ? "the track broke off (gap)" : "left"
                    entries.append(Entry(time: exit, order: 0, text: "exit      \(label) after \(Words.duration(v.duration)), \(why)"))
                } else {
                    entries.append(Entry(time: v.lastSeen, order: 3, text: "still in  \(label) at the end of the track, \(Words.duration(v.duration)) so far"))
                }
            }
        }
        for (k, d) in o.decisions.enumerated() where includeSuppressed || d.status == .delivered {
            let campaign = campaigns.campaigns[d.trigger.campaign]
            let rule = campaign.rules[d.trigger.rule]
            let message = campaign.offerIndex(rule.offer).flatMap { campaign.offers[$0].message }.map { ": \"\($0)\"" } ?? ""
            entries.append(Entry(time: d.trigger.time, order: 2,
                                 text: "\(d.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(campaign.id)/\(rule.offer) by rule \(rule.id)\(message)"
                                     + (d.status != .delivered && reasons?.indices.contains(k) == true ? " (\(reasons?[k] ?? ""))" : "")))
        }
        entries.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        return entries.map { "\(time.string($0.time))  \($0.text)\n" }
    }
}
