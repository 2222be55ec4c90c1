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
    /// 0: the value is the node; 1 or 2: it is the first or second number of the position
    /// node `index` (a position's numbers have no nodes of their own).
    private let part: Int

    /// A handle on node `index` that keeps `document` alive.
    init(document: JSONDocument, index: Int) {
        self.init(owner: document, document: document, tape: document.tape, index: index, part: 0)
    }

    private init(owner: JSONDocument?, document: JSONDocument, tape: JSONTape, index: Int, part: Int) {
        self.owner = owner
        self.document = document
        self.tape = tape
        self.index = index
        self.part = part
    }

    /// The same value as a handle that does not keep the document alive; use it (and the handles
    /// reached from it) only while this handle or the document is kept, e.g. in
    /// `withExtendedLifetime`.
    var unretained: JSONNode { JSONNode(owner: nil, document: document, tape: tape, index: index, part: part) }

    /// The same value, read in place (no reference to the document; valid while it lives).
    var value: JSONTape.Value { JSONTape.Value(tape, index, part: part) }

    /// The value of node `k` of the same document (kept alive as this handle keeps it).
    func node(_ k: Int) -> JSONNode { JSONNode(owner: owner, document: document, tape: tape, index: k, part: 0) }

    /// Number `part` (1 or 2) of this position.
    private func positionNumber(_ part: Int) -> JSONNode {
        JSONNode(owner: owner, document: document, tape: tape, index: index, part: part)
    }

    private var kind: JSONTape.Kind { part == 0 ? tape.nodes[index].kind : .number }

    /// Where the value starts.
    var mark: SourceMark { document.mark(atOffset: offset) }

    /// The byte offset where the value starts (`document.mark(atOffset:)` gives its mark).
    var offset: Int { value.offset }

    /// The member `key` of an object (the first, if the name is repeated).
    subscript(_ key: String) -> JSONNode? {
        part == 0 ? tape.member(index, key).map(node) : nil
    }

    /// The items of an array.
    var array: [JSONNode]? {
        switch kind {
        case .position where part == 0:
            return [positionNumber(1), positionNumber(2)]
        case .array:
            let n = tape.nodes[index]
            var out: [JSONNode] = []
            out.reserveCapacity(n.size)
            var k = index + 1
            for _ in 0..<n.size {
                out.append(node(k))
                k = tape.next(k)
            }
            return out
        default:
            return nil
        }
    }

    /// The members of an object in order (names as text), nil if this is not an object.
    var members: [(name: String, value: JSONNode)]? {
        guard kind == .object else { return nil }
        let n = tape.nodes[index]
        var out: [(name: String, value: JSONNode)] = []
        out.reserveCapacity(n.size)
        var k = index + 1
        for _ in 0..<n.size {
            let v = tape.next(k)
            out.append((tape.string(k), node(v)))
            k = tape.next(v)
        }
        return out
    }

    /// Whether this is an object.
    var isObject: Bool { value.isObject }

    /// Whether this is `null`.
    var isNull: Bool { value.isNull }

    /// The string value.
    var string: String? { value.string }

    /// The number value.
    var number: Double? { value.number }

    /// Text of an id or name: a string as is, a number as its decimal text (integers without a
    /// fraction or exponent; `1e21` is `1000000000000000000000`, not `1e+21`); nil for other kinds.
    var text: String? { value.text }

    /// The plain decimal text of a JSON number written with an exponent (`1.5e3` is `1500`,
    /// `25e-3` is `0.025`), exact from its digits; nil when the exponent is beyond +-400.
    static func decimalText(_ t: String) -> String? {
        let u = Array(t.utf8)
        guard let e = u.firstIndex(where: { $0 == 0x65 || $0 == 0x45 }), let exp = Int(String(decoding: u[(e + 1)...], as: UTF8.self)),
              abs(exp) <= 400 else { return nil }
        var mantissa = u[..<e]
        let negative = mantissa.first == 0x2D
        if negative { mantissa = mantissa.dropFirst() }
        let dot = mantissa.firstIndex(of: 0x2E)
        let intDigits = dot.map { Array(mantissa[..<$0]) } ?? Array(mantissa)
        let fracDigits = dot.map { Array(mantissa[(mantissa.index(after: $0))...]) } ?? []
        var digits = intDigits + fracDigits
        var point = intDigits.count + exp
        if point < 0 {
            digits = [UInt8](repeating: 0x30, count: -point) + digits
            point = 0
        }
        if point > digits.count { digits += [UInt8](repeating: 0x30, count: point - digits.count) }
        var whole = Array(digits[..<point]).drop { $0 == 0x30 }
        if whole.isEmpty { whole = [0x30] }
        var frac = Array(digits[point...])
        while frac.last == 0x30 { frac.removeLast() }
        var out = String(decoding: whole, as: UTF8.self)
        if !frac.isEmpty { out += "." + String(decoding: frac, as: UTF8.self) }
        return negative && out != "0" ? "-" + out : out
    }

    /// The items of an array of strings; nil if this is not an array or an item is not a string.
    var strings: [String]? { value.strings }

    /// The position `[longitude, latitude]` this array is (further members are ignored), if it is one.
    var position: Coordinate? { value.position }

    /// The `[longitude, latitude]` positions of an array of positions (further members of a
    /// position are ignored); nil when this is not one.
    var positions: [Coordinate]? { part == 0 ? tape.positions(index) : nil }

    /// The positions as `positions` gives them, written into `out` (emptied first, its memory
    /// kept); false, with `out` emptied, when this is not an array of positions.
    func positions(into out: inout [Coordinate]) -> Bool { value.positions(into: &out) }

    /// Where item `k` of this array starts.
    func itemMark(_ k: Int) -> SourceMark {
        if kind == .position { return positionNumber(k + 1).mark }
        return document.mark(atOffset: Int(tape.nodes[tape.item(index, k)].offset))
    }
}
