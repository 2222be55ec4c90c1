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
    /// The candidate within edit distance 2 of `word` (the first of the nearest), or nil.
    /// - Complexity: O(candidates x length): a distance above 2 is given up within a band of
    ///   5 cells per row, so a long unknown id among many long ones stays fast.
    static func nearest(_ word: String, _ candidates: [String]) -> String? {
        let w = Array(word)
        var best: (String, Int)?
        for c in candidates {
            guard abs(c.count - w.count) <= 2 else { continue }
            let d = editDistance(w, Array(c), atMost: 2)
            if d <= 2, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    /// The edit distance of `a` and `b`, or `limit + 1` when it is more than `limit`.
    /// - Complexity: O(max(a, b) x limit).
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int = Int.max / 2) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        let big = limit + 1
        var prev = (0...b.count).map { min($0, big) }
        var cur = [Int](repeating: big, count: b.count + 1)
        for (i, ca) in a.enumerated() {
            let lo = max(1, i + 1 - limit), hi = min(b.count, i + 1 + limit)
            cur[0] = min(i + 1, big)
            if lo > 1 { cur[lo - 1] = big }
            var rowMin = cur[0]
            if lo <= hi {
                for j in lo...hi {
                    let cost = prev[j - 1] + (ca == b[j - 1] ? 0 : 1)
                    cur[j] = min(min(prev[j] + 1, cur[j - 1] + 1), min(cost, big))
                    rowMin = min(rowMin, cur[j])
                }
            }
            if hi < b.count { cur[hi + 1] = big }
            if rowMin > limit { return big }
            swap(&prev, &cur)
        }
        return min(prev[b.count], big)
    }
}
