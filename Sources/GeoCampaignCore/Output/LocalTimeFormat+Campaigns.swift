extension LocalTimeFormat {
    /// The zone a campaign names for people: its `active.timezone` when it has an `active`
    /// window with a zone other than UTC, else the one zone its `during` conditions use (when
    /// they all use the same), else nil.
    public static func namedZone(of campaign: Campaign) -> String? {
        if let a = campaign.active, a.timezone != "UTC" { return a.timezone }
        var zones: Set<String> = []
        func collect(_ c: Condition) {
            switch c {
            case .during(let d): zones.insert(d.timezone)
            case .all(let parts), .any(let parts): parts.forEach(collect)
            case .not(let inner): collect(inner)
            case .inside, .visited, .dwelled, .sequence: break
            }
        }
        campaign.rules.forEach { collect($0.condition) }
        return zones.count == 1 ? zones.first : nil
    }

    /// The zone for what concerns all campaigns at once (a timeline, a test case): `override`
    /// (`--tz`), else the zone the campaigns name when those that name one agree, else UTC.
    public static func forSet(_ set: CampaignSet, override: LocalTimeFormat? = nil) -> LocalTimeFormat {
        if let override { return override }
        let zones = Set(set.campaigns.compactMap(namedZone))
        if zones.count == 1, let z = zones.first, let f = LocalTimeFormat(zone: z) { return f }
        return .utc
    }

    /// The zone of each campaign: `override`, else the zone it names, else `forSet`'s.
    public static func perCampaign(_ set: CampaignSet, override: LocalTimeFormat? = nil) -> [LocalTimeFormat] {
        let shared = forSet(set, override: override)
        return set.campaigns.map { c in
            if let override { return override }
            return namedZone(of: c).flatMap { LocalTimeFormat(zone: $0) } ?? shared
        }
    }
}
