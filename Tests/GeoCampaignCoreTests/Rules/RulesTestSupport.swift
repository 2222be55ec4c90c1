import XCTest
@testable import GeoCampaignCore

/// Minutes to milliseconds, for readable timelines.
func m(_ minutes: Int64) -> Int64 { minutes * 60_000 }
/// Hours to milliseconds.
func h(_ hours: Int64) -> Int64 { hours * 3_600_000 }

/// A region with a dummy shape: rule evaluation never looks at geometry.
func region(_ id: String, tags: [String] = []) -> Region {
    Region(id: id, tags: tags, shape: .circle(center: Coordinate(lat: 0, lon: 0), radiusM: 10))
}

/// A closed visit, or an open one (`exit == nil`) last seen at `lastSeen`.
func visit(_ region: Int32, _ enter: Int64, _ exit: Int64?, lastSeen: Int64? = nil) -> Visit {
    Visit(region: region, enter: enter, exit: exit, lastSeen: exit ?? lastSeen ?? enter, reason: exit == nil ? nil : .left)
}

/// A campaign with the given regions and one rule per condition, each naming offer "o".
func campaign(_ id: String = "c", regions: [Region], conditions: [Condition], active: ActiveWindow? = nil,
              offers: [Offer] = [Offer(id: "o")]) -> Campaign {
    Campaign(id: id, active: active, regions: regions,
             rules: conditions.enumerated().map { Rule(id: "r\($0.offset)", condition: $0.element, offer: offers[0].id) },
             offers: offers)
}

/// Trigger times of rule 0 of a one-rule campaign.
func triggerTimes(_ condition: Condition, regions: [Region], visits: [Visit], t0: Int64, tEnd: Int64,
                  active: ActiveWindow? = nil) -> [Int64] {
    let c = campaign(regions: regions, conditions: [condition], active: active)
    return RuleEvaluator(campaign: c, campaignIndex: 0).triggers(visits: visits, t0: t0, tEnd: tEnd).map(\.time)
}

/// Intervals of rule 0 of a one-rule campaign.
func ruleIntervals(_ condition: Condition, regions: [Region], visits: [Visit], t0: Int64, tEnd: Int64,
                   active: ActiveWindow? = nil) -> [Interval] {
    let c = campaign(regions: regions, conditions: [condition], active: active)
    return RuleEvaluator(campaign: c, campaignIndex: 0).intervals(rule: 0, visits: visits, t0: t0, tEnd: tEnd).intervals
}

/// A UTC instant in milliseconds.
func utc(_ y: Int64, _ mo: Int64, _ d: Int64, _ hh: Int64 = 0, _ mm: Int64 = 0, _ ss: Int64 = 0) -> Int64 {
    ((Timestamp.days(year: y, month: mo, day: d) * 24 + hh) * 60 + mm) * 60_000 + ss * 1000
}
