import Foundation

/// Collects the errors of parallel workers, one slot per worker, and gives back the first one in
/// worker order (the first in input order, since workers take consecutive parts).
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error?]

    init(count: Int) {
        errors = Array(repeating: nil, count: count)
    }

    /// Records the error of worker `k`.
    func set(_ k: Int, _ error: Error) {
        lock.lock()
        errors[k] = error
        lock.unlock()
    }

    /// The error of the lowest-numbered worker that failed.
    var first: Error? {
        lock.lock()
        defer { lock.unlock() }
        return errors.lazy.compactMap { $0 }.first
    }
}
