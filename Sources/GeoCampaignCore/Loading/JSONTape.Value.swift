extension JSONTape {
    /// A value of a tape read in place: the tape, the value's node and, for a number of a
    /// position node, which one. Plain pointers and integers (no reference counting), valid while
    /// the tape's memory is; places are byte offsets (the document turns them into marks once
    /// its line starts are known, which a value read while the text is being parsed is not).
    struct Value {
        let tape: JSONTape
        /// The value's node in `tape.nodes`.
        let index: Int
        /// 0: the value is the node; 1 or 2: it is the first or second number of the position
        /// node `index` (a position's numbers have no nodes of their own).
        let part: Int

        init(_ tape: JSONTape, _ index: Int, part: Int = 0) {
            self.tape = tape
            self.index = index
            self.part = part
        }

        private var kind: Kind { part == 0 ? tape.nodes[index].kind : .number }

        /// Whether this is an object.
        var isObject: Bool { kind == .object }

        /// Whether this is an array node (not a position node, whose numbers are its items).
        var isArray: Bool { part == 0 && tape.nodes[index].kind == .array }

        /// Whether this is `null`.
        var isNull: Bool { kind == .null }

        /// The byte offset where the value starts (a string's opening quote).
        var offset: Int {
            part == 0 ? Int(tape.nodes[index].offset) : tape.positionNumber(index, part - 1).offset
        }

        /// The member `key` of an object (the first, if the name is repeated), as `JSONTape.member`.
        subscript(_ key: String) -> Value? {
            part == 0 ? tape.member(index, key).map { Value(tape, $0) } : nil
        }

        /// The member `key` of an object (the first, if the name is repeated), as `JSONTape.member`.
        subscript(_ key: Key) -> Value? {
            part == 0 ? tape.member(index, key).map { Value(tape, $0) } : nil
        }

        /// The string value.
        var string: String? {
            let k = kind
            return k == .asciiString || k == .string || k == .escapedString ? tape.string(index) : nil
        }

        /// The number value.
        var number: Double? {
            guard kind == .number else { return nil }
            let n = tape.nodes[index]
            return part == 2 ? n.latitude : n.number
        }

        /// Text of an id or name (`JSONTape.text(number:written:)` for numbers); nil for other kinds.
        var text: String? {
            switch kind {
            case .asciiString, .string, .escapedString: return tape.string(index)
            case .number:
                let w = part == 0 ? (Int(tape.nodes[index].offset), tape.nodes[index].size) : tape.positionNumber(index, part - 1)
                return tape.text(number: number ?? 0, writtenAt: w.0, length: w.1)
            default: return nil
            }
        }

        /// The items of an array of strings; nil if this is not an array or an item is not a string.
        var strings: [String]? { part == 0 ? tape.strings(index) : nil }

        /// The position `[longitude, latitude]` this array is (further members are ignored), if it is one.
        var position: Coordinate? { part == 0 ? tape.position(index) : nil }

        /// Number of items of an array (2 for a position), nil for other kinds.
        var count: Int? {
            switch kind {
            case .position where part == 0: return 2
            case .array: return tape.nodes[index].size
            default: return nil
            }
        }

        /// The items of an array (a position's two numbers for a position node).
        var array: [Value]? {
            switch kind {
            case .position where part == 0:
                return [Value(tape, index, part: 1), Value(tape, index, part: 2)]
            case .array:
                var out: [Value] = []
                out.reserveCapacity(tape.nodes[index].size)
                forEachItem { out.append($0) }
                return out
            default:
                return nil
            }
        }

        /// Calls `body` with each item of an array node in order (not for a position node).
        func forEachItem(_ body: (Value) -> Void) {
            guard part == 0, tape.nodes[index].kind == .array else { return }
            var k = index + 1
            for _ in 0..<tape.nodes[index].size {
                body(Value(tape, k))
                k = tape.next(k)
            }
        }

        /// The positions as `JSONTape.positions(_:into:)` gives them, written into `out` (emptied
        /// first, its memory kept); false when this is not an array of positions.
        func positions(into out: inout [Coordinate]) -> Bool {
            out.removeAll(keepingCapacity: true)
            return part == 0 && tape.positions(index, into: &out)
        }

        /// Where item `k` of this array starts.
        func itemOffset(_ k: Int) -> Int {
            if kind == .position { return Value(tape, index, part: k + 1).offset }
            return Int(tape.nodes[tape.item(index, k)].offset)
        }
    }
}
