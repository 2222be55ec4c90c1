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
    /// The document holding the value (for marks).
    unowned(unsafe) let document: JSONDocument
    /// The document's bytes and nodes, read without reference counting.
    let tape: JSONTape
    /// The value's node in `tape.nodes`.
    let index: Int

    /// A handle on node `index` that keeps `document` alive.
    init(document: JSONDocument, index: Int) {
        self.init(owner: document, document: document, tape: document.tape, index: index)
    }

    private init(owner: JSONDocument?, document: JSONDocument, tape: JSONTape, index: Int) {
        self.owner = owner
        self.document = document
        self.tape = tape
        self.index = index
    }

    /// The same value as a handle that does not keep the document alive; use it (and the handles
    /// reached from it) only while this handle or the document is kept, e.g. in
    /// `withExtendedLifetime`.
    var unretained: JSONNode { JSONNode(owner: nil, document: document, tape: tape, index: index) }

    /// The value of node `k` of the same document (kept alive as this handle keeps it).
    func node(_ k: Int) -> JSONNode { JSONNode(owner: owner, document: document, tape: tape, index: k) }

    /// The node indices of the items of an array (for `node(_:)`): lighter than `array` for long
    /// arrays.
    var itemIndices: [Int]? {
        let n = tape.nodes[index]
        guard n.kind == .array else { return nil }
        var out: [Int] = []
        out.reserveCapacity(Int(n.size))
        var k = index + 1
        for _ in 0..<Int(n.size) {
            out.append(k)
            k = Int(tape.nodes[k].next)
        }
        return out
    }

    private var kind: JSONTape.Kind { tape.nodes[index].kind }

    /// Where the value starts.
    var mark: SourceMark { document.mark(atOffset: Int(tape.nodes[index].offset)) }

    /// The member `key` of an object (the first, if the name is repeated).
    subscript(_ key: String) -> JSONNode? {
        tape.member(index, key).map(node)
    }

    /// The items of an array.
    var array: [JSONNode]? {
        let n = tape.nodes[index]
        guard n.kind == .array else { return nil }
        var out: [JSONNode] = []
        out.reserveCapacity(Int(n.size))
        var k = index + 1
        for _ in 0..<Int(n.size) {
            out.append(node(k))
            k = Int(tape.nodes[k].next)
        }
        return out
    }

    /// Whether this is an object.
    var isObject: Bool { kind == .object }

    /// Whether this is `null`.
    var isNull: Bool { kind == .null }

    /// The string value.
    var string: String? {
        let k = kind
        return k == .asciiString || k == .string || k == .escapedString ? tape.string(index) : nil
    }

    /// The number value.
    var number: Double? {
        kind == .number ? tape.nodes[index].number : nil
    }

    /// Text of an id or name: a string as is, a number as its decimal text (integers without a
    /// fraction or exponent); nil for other kinds.
    var text: String? {
        switch kind {
        case .asciiString, .string, .escapedString: return tape.string(index)
        case .number:
            let d = tape.nodes[index].number
            if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
            let t = tape.numberText(index)
            return t.contains("e") || t.contains("E") ? String(d) : t
        default: return nil
        }
    }

    /// The items of an array of strings; nil if this is not an array or an item is not a string.
    var strings: [String]? { tape.strings(index) }

    /// The position `[longitude, latitude]` this array is (further members are ignored), if it is one.
    var position: Coordinate? { tape.position(index) }

    /// The `[longitude, latitude]` positions of an array of positions (further members of a
    /// position are ignored); nil when this is not one.
    var positions: [Coordinate]? { tape.positions(index) }

    /// Where item `k` of this array starts.
    func itemMark(_ k: Int) -> SourceMark {
        document.mark(atOffset: Int(tape.nodes[tape.item(index, k)].offset))
    }
}
