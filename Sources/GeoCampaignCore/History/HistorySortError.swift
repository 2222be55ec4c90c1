/// A history declared grouped by user (`--sorted`) is not: a user's lines reappear after
/// another user's.
public struct HistorySortError: Error, Equatable, CustomStringConvertible {
    /// The history file path as given (`-` for stdin).
    public var path: String
    /// 1-based line number of the line where the user reappears; 0 for a GPX file (the whole file).
    public var line: Int
    /// The user id.
    public var user: String

    /// Creates the error.
    public init(path: String, line: Int, user: String) {
        self.path = path
        self.line = line
        self.user = user
    }

    /// `path:line: user 'ID' appears again after other users; --sorted needs each user's lines together`.
    /// (Without the line number for a GPX file.)
    public var description: String {
        let place = line > 0 ? "\(path):\(line)" : path
        return "\(place): user '\(user)' appears again after other users; --sorted needs each user's lines together"
    }
}
