/// A JSON value (RFC 8259) of a parsed `JSONDocument`, for GeoJSON imports whose problems are
/// reported at the feature: a cheap handle (the document and the value's node); strings, numbers'
/// text and positions are read from the document's bytes when asked for.
///
/// A handle keeps its document alive, except handles made by `unretained` and those reached from
/// them: they cost no reference counting (threads decoding one document would contend on its
/// count) and are valid only while a retaining handle or the document itself is kept.
struct JSONNode: @unchecked Sendable {
    /// Keeps the document alive; nil in unretained handles.
    private let owner: JSONDocument?
    /// The document holding the value.
    unowned(unsafe) let document: JSONDocument
    /// The value's node in `document.nodes`.
    let index: Int

    /// A handle on node `index` that keeps `document` alive.
    init(document: JSONDocument, index: Int) {
        owner = document
        self.document = document
        self.index = index
    }

    private init(owner: JSONDocument?, document: JSONDocument, index: Int) {
        self.owner = owner
        self.document = document
        self.index = index
    }

    /// The same value as a handle that does not keep the document alive; use it (and the handles
    /// reached from it) only while this handle or the document is kept, e.g. in
    /// `withExtendedLifetime`.
    var unretained: JSONNode { JSONNode(owner: nil, document: document, index: index) }

    private func node(_ k: Int) -> JSONNode { JSONNode(owner: owner, document: document, index: k) }

    private var kind: JSONDocument.Kind { document.nodes[index].kind }

    /// Where the value starts.
    var mark: SourceMark { document.mark(atOffset: Int(document.nodes[index].offset)) }

    /// The member `key` of an object (the first, if the name is repeated).
    subscript(_ key: String) -> JSONNode? {
        document.member(index, key).map(node)
    }

    /// The items of an array.
    var array: [JSONNode]? {
        guard kind == .array else { return nil }
        return document.children(index).map(node)
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
