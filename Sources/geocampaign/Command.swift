/// A subcommand, shaped like swift-argument-parser's: a static name and abstract, its options,
/// `validate()` after parsing, then `run()`.
protocol Command {
    /// The word that selects the command.
    static var name: String { get }
    /// One line for `geocampaign --help`.
    static var abstract: String { get }
    /// The usage line.
    static var usage: String { get }
    /// Options with their help texts.
    static var options: [OptionSpec] { get }
    /// Whether bare arguments (paths) are accepted.
    static var allowsPositionals: Bool { get }
    /// An example invocation for the help text.
    static var example: String { get }
    /// Longer help text after the abstract; empty for none.
    static var discussion: String { get }

    /// Builds the command from parsed arguments.
    init(_ args: ParsedArguments) throws
    /// Checks option combinations; throws usage errors.
    func validate() throws
    /// Does the work and returns the exit status.
    func run() throws -> ExitCode
}

extension Command {
    static var allowsPositionals: Bool { false }
    static var discussion: String { "" }
    func validate() throws {}

    /// The help text: abstract, usage, options with defaults, an example.
    static var help: String {
        var s = "\(abstract)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        s += "\nOPTIONS:\n"
        let rows = (options + [.flag("help", "Show this help.")]).map { o -> (String, String) in
            ("--\(o.name)" + (o.value.map { " \($0)" } ?? ""), o.help + (o.repeatable ? " (repeatable)" : ""))
        }
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        for (left, right) in rows {
            s += "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + right + "\n"
        }
        s += "\nEXAMPLE:\n  \(example)\n"
        return s
    }
}
