/// Hints for keys that are valid somewhere, just not where they were written: better than a
/// spelling suggestion when the user put a real key at the wrong level.
enum MisplacedKeys {
    private static let conditionKinds = ["inside", "visited", "dwelled", "sequence", "during", "all", "any", "not"]

    /// The hint for `key` found in `context` (the words used by `checkKeys`), if any.
    static func hint(_ key: String, in context: String) -> String? {
        switch context {
        case "a region":
            switch key {
            case "center", "radius": return "'\(key)' belongs inside the circle: write circle: { center: \"lat, lon\", radius: 150m }"
            case "max_accuracy", "max_gap": return "'\(key)' is set for a whole campaign (under tracking:) or in the settings file, not per region"
            case "id_property", "name_property": return "'\(key)' belongs to an import entry, next to import: <GeoJSON file>"
            default: return nil
            }
        case "an import":
            switch key {
            case "id": return "imported regions take their ids from the GeoJSON features: remove 'id', or name the property that holds the ids with id_property:"
            case "name": return "imported regions take their names from the GeoJSON features: remove 'name', or name the property that holds the names with name_property:"
            case "circle", "polygon", "holes": return "an entry is either an import or a \(key == "circle" ? "circle" : "polygon"): make two entries"
            default: return nil
            }
        case "a rule":
            if key == "regions" || key == "tags" || conditionKinds.contains(key) {
                return "'\(key)' belongs in the rule's condition: write when: { \(conditionKinds.contains(key) ? key : "inside"): { ... } }"
            }
            if ["priority", "cap", "message"].contains(key) { return "'\(key)' belongs to the offer (under offers:), not to the rule" }
            return nil
        case "a campaign":
            switch key {
            case "limits": return "'limits' belongs in the settings file: settings: { limits: { per_user: 2 per 24h } }"
            case "hysteresis", "confirm", "max_accuracy", "max_gap": return "'\(key)' belongs under tracking: write tracking: { \(key): ... }"
            case "from", "until", "timezone": return "'\(key)' belongs under active: write active: { \(key): ... }"
            case "id": return "a campaign's id is written campaign: <id> on the first line"
            default: return nil
            }
        case "an offer":
            if key == "when" || key == "offer" { return "'\(key)' belongs to a rule (under rules:), not to the offer" }
            return nil
        case _ where context.hasSuffix(" condition") && ["offer", "id", "description", "when"].contains(key):
            return "'\(key)' belongs to the rule, not to its condition: indent it like the rule's when:, not under it"
        case "a visited condition":
            if key == "over" { return "'over' belongs to dwelled; visited counts visits with at_least, within and min_dwell" }
            return nil
        case "a dwelled condition":
            if ["within", "at_least", "distinct", "min_dwell"].contains(key) {
                return "'\(key)' belongs to visited; dwelled takes regions or tags and over"
            }
            return nil
        case "a sequence condition":
            if ["regions", "tags", "min_dwell"].contains(key) {
                return "'\(key)' belongs inside each step: steps: [ { regions: [...], min_dwell: 5m }, { regions: [...] } ]"
            }
            return nil
        case "settings":
            if ["hysteresis", "confirm", "max_accuracy", "max_gap"].contains(key) { return "'\(key)' belongs under tracking: write tracking: { \(key): ... }" }
            if key == "per_user" { return "'per_user' belongs under limits: write limits: { per_user: 2 per 24h }" }
            return nil
        default:
            return nil
        }
    }
}
