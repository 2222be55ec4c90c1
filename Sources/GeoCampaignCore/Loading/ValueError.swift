/// Why a scalar could not be read as the type its key expects; the message names the fix.
struct ValueError: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
