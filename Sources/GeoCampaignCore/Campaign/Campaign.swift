/// One campaign: its regions, rules and offers (formats.md 1.1).
public struct Campaign: Sendable {
    /// Campaign id: letters, digits, '-', '_', '.'; unique across files.
    public var id: String
    /// Optional display name.
    public var name: String?
    /// The optional `active` window, ANDed into every rule (semantics 3.7).
    public var active: ActiveWindow?
    /// Holdout percentage, 0...50 (semantics 4.2).
    public var holdoutPercent: Double
    /// Campaign-level tracking parameters (each optional; settings and defaults fill the rest).
    public var tracking: Tracking
    /// The campaign's regions, imports expanded, in file order.
    public var regions: [Region]
    /// The campaign's rules in file order.
    public var rules: [Rule]
    /// The campaign's offers in file order.
    public var offers: [Offer]
    /// The file the campaign was loaded from, as named on the command line.
    public var file: String
    /// The optional goal: what counts as a conversion for the lift (measurement.md 1).
    public var goal: Goal?
    /// A hash (32 hex digits) of the bytes the loader parsed for this campaign: its file's, then
    /// each imported GeoJSON file's, in the order read; empty for a campaign not loaded from
    /// files. Equal bytes give an equal campaign, so a state keeps the fingerprint
    /// (`CampaignFingerprint`) it computed for these bytes and does not compute it again.
    public var sourceHash = ""

    /// Creates a campaign.
    public init(id: String, name: String? = nil, active: ActiveWindow? = nil, holdoutPercent: Double = 0,
                tracking: Tracking = Tracking(), regions: [Region], rules: [Rule], offers: [Offer], file: String = "", goal: Goal? = nil) {
        self.id = id
        self.name = name
        self.active = active
        self.holdoutPercent = holdoutPercent
        self.tracking = tracking
        self.regions = regions
        self.rules = rules
        self.offers = offers
        self.file = file
        self.goal = goal
    }

    /// The offer with the given id, if any.
    public func offerIndex(_ id: String) -> Int? { offers.firstIndex { $0.id == id } }
}
