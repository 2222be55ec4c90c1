/// Every user's accepted fixes, grouped by user and ordered by time.
public struct History: Sendable {
    /// User ids; the index is the user number used in `fixes`.
    public var userIds: [String]
    /// Each user's fixes, sorted by time, stably: equal times keep file order, then line order.
    public var fixes: [[Fix]]
    /// What reading found.
    public var stats: HistoryStats

    /// Creates a history.
    public init(userIds: [String], fixes: [[Fix]], stats: HistoryStats) {
        self.userIds = userIds
        self.fixes = fixes
        self.stats = stats
    }

    /// Number of users.
    public var userCount: Int { userIds.count }

    /// The user number of `id`, matched by the id's bytes as the reader tells users apart
    /// (`UserKey`), not by `String`'s canonical equivalence.
    /// - Complexity: O(n) in the users.
    public func userNumber(of id: String) -> Int? {
        let key = UserKey(id)
        return userIds.firstIndex { UserKey($0) == key }
    }
}
