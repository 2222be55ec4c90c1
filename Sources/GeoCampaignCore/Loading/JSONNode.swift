/// A JSON value (RFC 8259) of a parsed `JSONDocument`, for GeoJSON imports whose problems are
/// reported at the feature: a cheap handle (the document and the value's node); strings, numbers'
/// text and positions are read from the document's bytes when asked for.
struct JSONNode: Sendable {
    /// The document holding the value.
    let document: JSONDocument
    /// The value's node in `document.nodes`.
    let index: Int

    private var kind: JSONDocument.Kind { document.nodes[index].kind }

    /// Where the value starts.
    var mark: SourceMark { document.mark(atOffset: Int(document.nodes[index].offset)) }

    /// The member `key` of an object (the first, if the name is repeated).
    subscript(_ key: String) -> JSONNode? {
        document.member(index, key).map { JSONNode(document: document, index: $0) }
    }

    /// The items of an array.
    var array: [JSONNode]? {
        guard kind == .array else { return nil }
        return document.children(index).map { JSONNode(document: document, index: $0) }
    }

    /// Whether this is an object.
    var isObject: Bool { kind == .object }

    /// Whether this is `null`.
    var isNull: Bool { kind == .null }

    /// The string value.
    var string: String? {
        let k = kind
        return k == .string || k == .escapedString ? document.string(index) : nil
    }

    /// The number value.
    var number: Double? {
        kind == .number ? document.nodes[index].number : nil
    }

    /// Text of an id or name: a string as is, a number as its decimal text (integers without a
    /// fraction or exponent); nil for other kinds.
    var text: String? {
        switch kind {
        case .string, .escapedString: return document.string(index)
        case .number:
            let d = document.nodes[index].number
            if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
            let t = document.numberText(index)
            return t.contains("e") || t.contains("E") ? String(d) : t
        default: return nil
        }
    }

    /// The position `[longitude, latitude]` this array is (further members are ignored), if it is one.
    var position: Coordinate? { document.position(index) }

    /// The `[longitude, latitude]` positions of an array of positions (further members of a
    /// position are ignored); nil when this is not one.
    var positions: [Coordinate]? { document.positions(index) }

    /// Where item `k` of this array starts.
    func itemMark(_ k: Int) -> SourceMark {
        document.mark(atOffset: Int(document.nodes[document.item(index, k)].offset))
    }
}
