/// The pairs of a YAML mapping, looked up by key. A key whose value is a plain null (`~`, `null`
/// or nothing) counts as absent.
struct Fields {
    /// The mapping node.
    let node: YAMLNode
    let pairs: [YAMLNode.Pair]

    init(_ node: YAMLNode, _ pairs: [YAMLNode.Pair]) {
        self.node = node
        self.pairs = pairs
    }

    /// The value of `key`, nil when absent or null.
    subscript(_ key: String) -> YAMLNode? {
        guard let p = pairs.first(where: { $0.key.scalar == key }), !p.value.isNull else { return nil }
        return p.value
    }

    /// The key node of `key`, if present.
    func key(_ key: String) -> YAMLNode? {
        pairs.first(where: { $0.key.scalar == key })?.key
    }

    /// Whether `key` is present (even with a null value).
    func has(_ key: String) -> Bool { pairs.contains { $0.key.scalar == key } }

    /// Where the mapping starts (its first key).
    var mark: SourceMark { pairs.first?.key.mark ?? node.mark }
}
