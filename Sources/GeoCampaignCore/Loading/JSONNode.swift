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

    /// The members of an object in order (names as text), nil if this is not an object.
    var members: [(name: String, value: JSONNode)]? {
        let n = tape.nodes[index]
        guard n.kind == .object else { return nil }
        var out: [(name: String, value: JSONNode)] = []
        out.reserveCapacity(Int(n.size))
        var k = index + 1
        for _ in 0..<Int(n.size) {
            let v = Int(tape.nodes[k].next)
            out.append((tape.string(k), node(v)))
            k = Int(tape.nodes[v].next)
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
    /// fraction or exponent; `1e21` is `1000000000000000000000`, not `1e+21`); nil for other kinds.
    var text: String? {
        switch kind {
        case .asciiString, .string, .escapedString: return tape.string(index)
        case .number:
            let d = tape.nodes[index].number
            if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
            let t = tape.numberText(index)
            return t.contains("e") || t.contains("E") ? (Self.decimalText(t) ?? t) : t
        default: return nil
        }
    }

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
