/// Why a history line was rejected (formats.md 2.1). Cases are declared in priority order:
/// when a line has several problems it gets the first applicable one.
public enum RejectReason: String, CaseIterable, Sendable, Comparable {
    /// A line over 1 MiB.
    case tooLong = "too_long"
    /// Invalid UTF-8 anywhere in the line, or a user id holding a lone surrogate escape.
    case badEncoding = "bad_encoding"
    /// Not a JSON text per RFC 8259.
    case invalidJSON = "invalid_json"
    /// A valid JSON text that is not an object.
    case notObject = "not_object"
    /// A required field is absent (or the user id is empty).
    case missingField = "missing_field"
    /// A field has the wrong JSON type (`null` in a required field included).
    case badType = "bad_type"
    /// A number outside its range (latitude, longitude, negative accuracy, not finite).
    case outOfRange = "out_of_range"
    /// A timestamp that is not RFC 3339 with offset, not a valid date, or outside years 0001-9999.
    case badTimestamp = "bad_timestamp"
    /// Stateful runs only (state.md 1.2): a fix earlier than the user's last fix held in the
    /// state. Checked after every other reason.
    case late

    /// Dense index of the case, for per-reason counters.
    @inlinable public var index: Int {
        switch self {
        case .tooLong: return 0
        case .badEncoding: return 1
        case .invalidJSON: return 2
        case .notObject: return 3
        case .missingField: return 4
        case .badType: return 5
        case .outOfRange: return 6
        case .badTimestamp: return 7
        case .late: return 8
        }
    }

    /// Orders reasons by their priority (formats.md 2.1).
    public static func < (a: RejectReason, b: RejectReason) -> Bool { a.index < b.index }
}
