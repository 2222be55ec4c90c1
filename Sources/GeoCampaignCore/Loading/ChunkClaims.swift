import Foundation
import Glibc

/// Work cut into `count` pieces that the threads sharing it claim one at a time, lowest first
/// (the import's chunks, the compiled geometry's ranges, a replay's blocks in `BlockQueue`).
final class ChunkClaims: @unchecked Sendable {
    /// Number of pieces.
    let count: Int
    private var claimed = 0
    private let lock = NSLock()

    init(count: Int) { self.count = count }

    /// The lowest piece not claimed yet, now claimed; nil when every piece is.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard claimed < count else { return nil }
        claimed += 1
        return claimed - 1
    }

    /// Runs `onCaller` once on the calling thread and `others` on every other thread of a
    /// `DispatchQueue.concurrentPerform` over the cores; returns when all are done. Work that
    /// must stay on the calling thread goes into `onCaller`: what it allocates comes from that
    /// thread's malloc arena, where the memory an earlier stage freed is reused (the same work
    /// on a worker thread took fresh pages: 11 MB more at the peak of loading 100k polygons).
    /// Both must be able to run alone: when no other thread joins, `others` may run on the
    /// calling thread (before or after `onCaller`) or not at all.
    static func run(onCaller: () -> Void, others: () -> Void) {
        let caller = pthread_self()
        let callerRan = ChunkClaims(count: 1)
        DispatchQueue.concurrentPerform(iterations: max(2, ProcessInfo.processInfo.activeProcessorCount)) { _ in
            if pthread_equal(pthread_self(), caller) != 0, callerRan.next() != nil {
                onCaller()
            } else {
                others()
            }
        }
        if callerRan.next() != nil { onCaller() }
    }
}
