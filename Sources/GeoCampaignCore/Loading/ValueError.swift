/// Why a scalar could not be read as the type its key expects; the message names the fix.
struct ValueError: Error, Sendable {
    var message: String
    /// For a duration written another way (`1 day`, `1h 30m`, `30m1h`): the duration meant, in
    /// ms, so that a caller quoting a larger value (a cap) can show the whole fix.
    var meantMs: Int64?

    init(_ message: String, meantMs: Int64? = nil) {
        self.message = message
        self.meantMs = meantMs
    }
}
