/// The arguments of one command after parsing against its option specs.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `args` (the words after the command name); unknown options and missing values are usage errors.
    init(_ args: [String], specs: [OptionSpec], usage: String, allowsPositionals: Bool) throws {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                if arg.hasPrefix("-") && arg != "-" && !onlyPositionals {
                    throw CLIError.usage("unknown option '\(arg)'", usage)
                }
                guard allowsPositionals else { throw CLIError.usage("unexpected argument '\(arg)'", usage) }
                positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let near = Self.nearest(name, specs.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
                throw CLIError.usage("unknown option '--\(name)'\(near)", usage)
            }
            if spec.value == nil {
                if inline != nil { throw CLIError.usage("option '--\(name)' takes no value", usage) }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw CLIError.usage("option '--\(name)' needs a value \(spec.value ?? "")", usage) }
                value = args[i]
                i += 1
            }
            if !spec.repeatable && values[name] != nil {
                throw CLIError.usage("option '--\(name)' given more than once", usage)
            }
            values[name, default: []].append(value)
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The closest name within edit distance 2, for did-you-mean hints.
    static func nearest(_ word: String, _ candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(Array(word), Array(c))
            if d <= 2, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var cur = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                cur[j + 1] = min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (ca == cb ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}
