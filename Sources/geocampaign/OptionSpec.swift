/// One option a command accepts, as printed in its help.
struct OptionSpec {
    /// The long name without dashes, e.g. "history".
    var name: String
    /// The value placeholder, nil for a flag.
    var value: String?
    /// Whether the option may be given more than once.
    var repeatable: Bool = false
    /// The help text, defaults included.
    var help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }
    static func value(_ name: String, _ value: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, value: value, repeatable: repeatable, help: help)
    }
}
