/// A JSON value (RFC 8259) with the position where it starts, for GeoJSON imports whose problems
/// are reported at the feature.
struct JSONNode: Sendable {
    /// The value kinds. Numbers keep their text, so that numeric ids keep their digits.
    enum Kind: Sendable {
        case object([(String, JSONNode)])
        case array([JSONNode])
        case string(String)
        case number(Double, String)
        case bool(Bool)
        case null
    }

    var kind: Kind
    var mark: SourceMark

    /// The member `key` of an object.
    subscript(_ key: String) -> JSONNode? {
        if case .object(let members) = kind { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// The items of an array.
    var array: [JSONNode]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    /// Whether this is an object.
    var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    /// The string value.
    var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The number value.
    var number: Double? {
        if case .number(let d, _) = kind { return d }
        return nil
    }

    /// Text of an id or name: a string as is, a number as its decimal text (integers without a
    /// fraction or exponent); nil for other kinds.
    var text: String? {
        switch kind {
        case .string(let s): return s
        case .number(let d, let t):
            if d == d.rounded(), abs(d) < 9.0e15 { return String(Int64(d)) }
            return t.contains("e") || t.contains("E") ? String(d) : t
        default: return nil
        }
    }
}
