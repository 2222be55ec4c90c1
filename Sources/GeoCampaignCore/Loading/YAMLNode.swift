/// A position in a source file, 1-based line and column (columns count Unicode characters).
struct SourceMark: Sendable, Equatable {
    /// 1-based line.
    var line: Int
    /// 1-based column.
    var column: Int
}

/// A node of a parsed YAML document: scalars keep their text and style; every node keeps its mark.
/// Aliases are expanded into copies of the anchored node (arrays share storage, so copies are cheap).
struct YAMLNode: Sendable {
    /// How a scalar was written.
    enum ScalarStyle: Sendable, Equatable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// One key/value pair of a mapping; `key` carries the start mark of the key.
    struct Pair: Sendable {
        var key: YAMLNode
        var value: YAMLNode
    }

    /// The three node kinds.
    enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([Pair])
    }

    var kind: Kind
    /// Where the node starts.
    var mark: SourceMark
    /// Number of nodes in this subtree (aliases counted as expanded).
    var size: Int
    /// Collection levels in this subtree (0 for a scalar), aliases expanded.
    var height: Int = 0

    /// The scalar text, if this is a scalar.
    var scalar: String? {
        if case .scalar(let s, _) = kind { return s }
        return nil
    }

    /// The scalar style, if this is a scalar.
    var scalarStyle: ScalarStyle? {
        if case .scalar(_, let style) = kind { return style }
        return nil
    }

    /// Whether this is a plain `null`, `~` or empty scalar.
    var isNull: Bool {
        if case .scalar(let s, let style) = kind, style == .plain {
            return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL"
        }
        return false
    }

    /// The pairs, if this is a mapping.
    var pairs: [Pair]? {
        if case .mapping(let p) = kind { return p }
        return nil
    }

    /// The items, if this is a sequence.
    var items: [YAMLNode]? {
        if case .sequence(let s) = kind { return s }
        return nil
    }

    /// A word for the node's kind in messages: "a list", "a mapping", "text".
    var kindWord: String {
        switch kind {
        case .scalar: return isNull ? "empty" : "a single value"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
