/// A user id as a dictionary key, equal only to the same UTF-8 bytes.
///
/// The contract tells users apart by the bytes of their ids (formats 3.1 orders them by byte),
/// as the history's interner does. Swift's `String` equality is canonical equivalence instead:
/// `"\u{E9}"` (é) and `"e\u{301}"` (e and a combining acute) are equal strings and would be one
/// key of a `[String: …]`, where they are two users.
///
/// ```swift
/// UserKey("\u{E9}") == UserKey("e\u{301}")   // false: two users
/// "\u{E9}" == "e\u{301}"                     // true
/// ```
public struct UserKey: Hashable, Sendable {
    /// The user id.
    public let id: String

    /// The key of `id`.
    public init(_ id: String) { self.id = id }

    /// Whether both ids have the same UTF-8 bytes.
    /// - Complexity: O(n) in the ids' length.
    public static func == (a: UserKey, b: UserKey) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }

    /// Hashes the id's UTF-8 bytes.
    /// - Complexity: O(n) in the id's length.
    public func hash(into hasher: inout Hasher) {
        var s = id
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
