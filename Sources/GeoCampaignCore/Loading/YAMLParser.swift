import CYaml

/// A problem found while reading YAML: where, and what to tell the user.
struct YAMLProblem: Error, Sendable {
    var mark: SourceMark
    var message: String
}

/// Parses one YAML file with libyaml's event API into a `YAMLNode` tree.
///
/// Owns the libyaml parser (freed in `deinit`). Enforces the limits of formats.md 1.6: one
/// document, aliases expanding to at most `maxNodes` nodes, nesting at most `maxDepth` levels
/// (checked on the events, before any deep tree exists), no duplicate keys. Merge keys
/// (`<<: *a`, `<<: [*a, *b]`) are applied; explicit keys win over merged ones, earlier merges
/// over later ones.
final class YAMLParser {
    /// Maximum number of nodes a document may expand to.
    static let maxNodes = 1_000_000
    /// Maximum nesting depth of collections.
    static let maxDepth = 100

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    /// Number of bytes of `input` that hold the file (the buffer has at least one byte).
    private let inputCount: Int
    private let initialized: Bool

    /// Non-fatal problems found so far (duplicate keys).
    private(set) var problems: [YAMLProblem] = []

    /// Creates a parser over the bytes of a file.
    init(bytes: [UInt8]) {
        parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        input.initialize(repeating: 0)
        _ = input.initialize(from: bytes)
        inputCount = bytes.count
        initialized = yaml_parser_initialize(parser) == 1
        if initialized {
            yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        input.deallocate()
    }

    /// A collection being read. A class, so that appending to the top of the stack mutates its
    /// arrays in place: an enum payload taken out and put back copies them, which made loading
    /// quadratic in the length of a list or mapping.
    private final class Frame {
        let isMapping: Bool
        let mark: SourceMark
        let anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        /// A mapping's key waiting for its value.
        var key: YAMLNode?
        var merges: [YAMLNode] = []
        var size = 1
        var height = 0
        /// A mapping's keys so far and the line of each.
        var seen: [String: Int] = [:]

        init(isMapping: Bool, mark: SourceMark, anchor: String?) {
            self.isMapping = isMapping
            self.mark = mark
            self.anchor = anchor
        }
    }

    private var stack: [Frame] = []
    private var anchors: [String: YAMLNode] = [:]
    private var openAnchors: Set<String> = []
    private var total = 0
    /// Whether an alias was met: the node limit is then about expansion, else about length.
    private var sawAlias = false
    private var root: YAMLNode?

    private static func mark(_ m: yaml_mark_t) -> SourceMark {
        SourceMark(line: Int(m.line) + 1, column: Int(m.column) + 1)
    }

    /// The text of an anchor name libyaml gives, or nil for none.
    private static func string(_ p: UnsafePointer<UInt8>?) -> String? {
        p.map { String(cString: $0) }
    }

    /// Parses the document. Returns the root node, or throws the first fatal problem; non-fatal
    /// problems are in `problems` either way.
    func parse() throws(YAMLProblem) -> YAMLNode {
        guard initialized else { throw YAMLProblem(mark: SourceMark(line: 1, column: 1), message: "cannot start the YAML parser") }
        var documents = 0
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxProblem() }
            defer { yaml_event_delete(&event) }
            let start = Self.mark(event.start_mark)
            switch event.type {
            case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT, YAML_NO_EVENT:
                break
            case YAML_STREAM_END_EVENT:
                guard let root else {
                    throw YAMLProblem(mark: SourceMark(line: 1, column: 1), message: "the file is empty: a campaign file starts with 'campaign: <id>', a settings file with 'settings:'")
                }
                return root
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLProblem(mark: start, message: "a second YAML document starts here: put only one campaign in each file, in a file of its own")
                }
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                guard var node = anchors[name] else {
                    if openAnchors.contains(name) {
                        throw YAMLProblem(mark: start, message: "the alias '*\(name)' refers to the node that contains it: an alias cannot repeat its own parent")
                    }
                    throw YAMLProblem(mark: start, message: "unknown alias '*\(name)': define the anchor '&\(name)' before using it")
                }
                node.mark = start
                sawAlias = true
                if stack.count + node.height > Self.maxDepth {
                    throw YAMLProblem(mark: start, message: "the alias '*\(name)' makes the nesting here deeper than \(Self.maxDepth) levels: campaign files never need that many; write the values out")
                }
                try count(node.size, at: start)
                try add(node)
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text: String
                if let v = s.value {
                    text = String(decoding: UnsafeBufferPointer(start: v, count: Int(s.length)), as: UTF8.self)
                } else {
                    text = ""
                }
                let style: YAMLNode.ScalarStyle
                switch s.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE: style = .literal
                case YAML_FOLDED_SCALAR_STYLE: style = .folded
                default: style = .plain
                }
                try count(1, at: start)
                let node = YAMLNode(kind: .scalar(text, style), mark: start, size: 1)
                if let a = Self.string(s.anchor) { anchors[a] = node }
                try add(node)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                try push(at: start)
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = Self.string(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
                if let anchor { openAnchors.insert(anchor) }
                stack.append(Frame(isMapping: isMapping, mark: start, anchor: anchor))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { break }
                let node: YAMLNode
                let anchor = frame.anchor
                if frame.isMapping {
                    let all = try merged(frame.pairs, frame.merges)
                    let height = frame.merges.isEmpty ? frame.height : (all.map(\.value.height).max() ?? 0)
                    node = YAMLNode(kind: .mapping(all), mark: frame.mark, size: frame.size, height: 1 + height)
                } else {
                    node = YAMLNode(kind: .sequence(frame.items), mark: frame.mark, size: frame.size, height: 1 + frame.height)
                }
                if let anchor {
                    openAnchors.remove(anchor)
                    anchors[anchor] = node
                }
                try add(node)
            default:
                break
            }
        }
    }

    private func push(at mark: SourceMark) throws(YAMLProblem) {
        if stack.count + 1 > Self.maxDepth {
            throw YAMLProblem(mark: mark, message: "the nesting here is deeper than \(Self.maxDepth) levels: campaign files never need that many; check for a runaway indentation or too many brackets")
        }
        try count(1, at: mark)
    }

    private func count(_ n: Int, at mark: SourceMark) throws(YAMLProblem) {
        total += n
        if total > Self.maxNodes && !sawAlias {
            throw YAMLProblem(mark: mark, message: "this file holds more than 1,000,000 values: campaign files never need that many; move large region sets into GeoJSON imports")
        }
        if total > Self.maxNodes {
            throw YAMLProblem(mark: mark, message: "the aliases in this file expand to more than 1,000,000 values (a \"billion laughs\" file?): write the values out or use fewer aliases")
        }
    }

    private func add(_ node: YAMLNode) throws(YAMLProblem) {
        guard let top = stack.last else {
            root = node
            return
        }
        top.size += node.size
        if !top.isMapping {
            top.items.append(node)
            top.height = max(top.height, node.height)
        } else if let key = top.key {
            top.key = nil
            if case .scalar("<<", .plain) = key.kind {
                top.merges.append(node)
            } else if let k = key.scalar {
                if let line = top.seen[k] {
                    problems.append(YAMLProblem(mark: key.mark, message: "duplicate key '\(k)': it is already set on line \(line); keep only one of them"))
                } else {
                    top.seen[k] = key.mark.line
                    top.pairs.append(YAMLNode.Pair(key: key, value: node))
                    top.height = max(top.height, node.height)
                }
            }
        } else {
            guard node.scalar != nil else {
                throw YAMLProblem(mark: node.mark, message: "a key must be plain text, not \(node.kindWord)")
            }
            top.key = node
        }
    }

    private func merged(_ pairs: [YAMLNode.Pair], _ merges: [YAMLNode]) throws(YAMLProblem) -> [YAMLNode.Pair] {
        guard !merges.isEmpty else { return pairs }
        var result = pairs
        var keys = Set(pairs.compactMap { $0.key.scalar })
        func mergeOne(_ m: YAMLNode) throws(YAMLProblem) {
            guard let mp = m.pairs else {
                throw YAMLProblem(mark: m.mark, message: "'<<' merges a mapping: write '<<: *name' where '&name' marks a mapping, or '<<: [*a, *b]'")
            }
            for p in mp {
                guard let k = p.key.scalar, !keys.contains(k) else { continue }
                keys.insert(k)
                result.append(p)
            }
        }
        for m in merges {
            if let list = m.items {
                for item in list { try mergeOne(item) }
            } else {
                try mergeOne(m)
            }
        }
        return result
    }

    /// The libyaml error as a problem: at the construct left open (bracket, brace, quote, key
    /// without ':'), else where parsing stopped.
    private func syntaxProblem() -> YAMLProblem {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown error"
        let context = p.context.map { String(cString: $0) }
        if p.error == YAML_READER_ERROR {
            let offset = Int(p.problem_offset)
            var line = 1, column = 1, i = 0
            while i < offset && i < inputCount {
                let b = input[i]
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return YAMLProblem(mark: SourceMark(line: line, column: column), message: "the file is not valid UTF-8 text here (\(problem)): save it as UTF-8")
        }
        if p.error == YAML_MEMORY_ERROR {
            return YAMLProblem(mark: SourceMark(line: 1, column: 1), message: "out of memory while reading the file")
        }
        let problemMark = Self.mark(p.problem_mark)
        let contextMark = Self.mark(p.context_mark)
        if context == "while scanning a quoted scalar" {
            let quote = character(at: contextMark) ?? "\""
            return YAMLProblem(mark: contextMark, message: "this quoted text is never closed: add the closing \(quote) at its end")
        }
        if let context, let message = Self.contextAdvice[context] {
            return YAMLProblem(mark: contextMark, message: message)
        }
        if let text = lineText(problemMark.line), Self.singleQuotesOutsideDoubleQuotes(text) % 2 == 1,
           context != "while scanning a quoted scalar" {
            return YAMLProblem(mark: problemMark, message: "this line has an odd number of ' quotes: inside '...' write an apostrophe as two quotes (''), or put the text in double quotes instead, e.g. \"Lorrenzillo's\"")
        }
        if let ch = character(at: problemMark), ch == "]" || ch == "}", context != "while parsing a flow sequence", context != "while parsing a flow mapping" {
            return YAMLProblem(mark: problemMark, message: "this '\(ch)' closes nothing: remove it, or add the matching '\(ch == "]" ? "[" : "{")' before")
        }
        if problem.contains("tab character")
            || (problem == "found character that cannot start any token" && character(at: problemMark) == "\t") {
            return YAMLProblem(mark: problemMark, message: "a tab character here: YAML is indented with spaces only, replace the tab with spaces")
        }
        if problem == "did not find expected key", let text = lineText(problemMark.line) {
            let before = Array(text.unicodeScalars.prefix(max(0, problemMark.column - 1))).reversed().first { $0 != " " && $0 != "\t" }
            if before == "\"" || before == "'" {
                return YAMLProblem(mark: problemMark, message: "unexpected text after the quoted value: put all of the value inside the quotes")
            }
        }
        if let (atContext, message) = Self.problemAdvice[problem] {
            return YAMLProblem(mark: atContext ? contextMark : problemMark, message: message)
        }
        if problem == "found unexpected end of stream" {
            return YAMLProblem(mark: problemMark, message: "the file ends in the middle of a value: \(context.map { "\($0), " } ?? "")check for a missing closing quote or bracket")
        }
        let ctx = context.map { " (\($0) started at line \(contextMark.line), column \(contextMark.column))" } ?? ""
        return YAMLProblem(mark: problemMark, message: "invalid YAML: \(problem)\(ctx)")
    }

    /// What to say when libyaml stops in one of these contexts (at the construct left open).
    private static let contextAdvice: [String: String] = [
        "while parsing a flow sequence": "this list is never closed: add the closing ']' (and separate items with commas)",
        "while parsing a flow mapping": "this '{' is never closed: add the closing '}' (and separate entries with commas)",
        "while scanning a simple key": "a key here has no ':' after it: write 'key: value'",
    ]

    /// What to say for these libyaml problems, and whether at the construct left open (the
    /// context mark) rather than where parsing stopped.
    private static let problemAdvice: [String: (atContext: Bool, message: String)] = [
        "mapping values are not allowed in this context":
            (false, "unexpected ':' here: check the indentation of this line, or put the value in quotes if it contains ': '"),
        "found character that cannot start any token":
            (false, "a value cannot start with this character: put the value in quotes"),
        "did not find expected key":
            (false, "unexpected text here: check its indentation (the keys of one mapping must line up) and that list items start with '- '"),
        "did not find expected '-' indicator":
            (false, "this line breaks the list above it: start every list item with '- ' at the same indentation"),
        "did not find expected comment or line break":
            (false, "unexpected text after the value: remove it, or put the whole value in quotes"),
        "did not find expected <document start>":
            (false, "unexpected text here: every line of a mapping is 'key: value'; check this line and the ones above it for a missing ':' or a wrong indentation"),
        "did not find expected alphabetic or numeric character":
            (true, "'&' and '*' mark anchors and aliases in YAML: put a value that starts with & or * in quotes"),
        "did not find expected node content":
            (false, "a value is missing here: check for a doubled comma, a stray character, or a value that needs quotes"),
        "block sequence entries are not allowed in this context":
            (false, "a list item ('- ') cannot start here: put it on its own line, indented under its key"),
        "found undefined tag handle":
            (true, "'!' starts a YAML tag: put a value that starts with ! in quotes"),
    ]

    /// Number of `'` on a line that are not inside a double-quoted part.
    static func singleQuotesOutsideDoubleQuotes(_ line: String) -> Int {
        var count = 0
        var inDouble = false
        var escaped = false
        for ch in line {
            if inDouble {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inDouble = false }
            } else if ch == "\"" {
                inDouble = true
            } else if ch == "'" {
                count += 1
            } else if ch == "#" {
                break
            }
        }
        return count
    }

    /// The text of a 1-based line of the input, if any.
    private func lineText(_ line: Int) -> String? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[0..<inputCount]), as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard line >= 1, line <= lines.count else { return nil }
        return String(lines[line - 1])
    }

    /// The character (Unicode scalar) at a mark of the input, if any.
    private func character(at mark: SourceMark) -> Character? {
        guard let line = lineText(mark.line) else { return nil }
        let scalars = Array(line.unicodeScalars)
        return mark.column >= 1 && mark.column <= scalars.count ? Character(scalars[mark.column - 1]) : nil
    }
}
