import Dispatch
import Foundation

/// A value computed once, on a background thread (or at once on this one); `value` waits for
/// it. For work that can run beside other work, such as compiling rules beside regions, or
/// loading campaigns beside reading a history.
///
///     let rules = BackgroundTask { compileRules() }
///     compileRegions()
///     use(rules.value)
public final class BackgroundTask<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    private var result: Value?
    private let work: () -> Value

    /// Where the work runs.
    public enum Place {
        /// Before `init` returns, on the calling thread.
        case here
        /// On a thread of the global queue's pool, which the parallel loops
        /// (`DispatchQueue.concurrentPerform`) also use.
        case pool
        /// On a thread of its own, outside the pool: for work that waits (on the disk, on other
        /// work) or that must not keep the pool's threads from the parallel loops beside it
        /// (a pool of one thread per core, on which a queued task waits for a free thread, and
        /// a parallel loop runs on fewer threads while a task holds one).
        case ownThread
    }

    /// Starts `work` on a global queue, or runs it before returning when `inBackground` is false.
    public convenience init(inBackground: Bool = true, _ work: @escaping () -> Value) {
        self.init(inBackground ? .pool : .here, work)
    }

    /// Starts `work` at `place`.
    public init(_ place: Place, _ work: @escaping () -> Value) {
        self.work = work
        switch place {
        case .here:
            result = work()
        case .pool:
            done.enter()
            DispatchQueue.global().async {
                self.result = work()
                self.done.leave()
            }
        case .ownThread:
            done.enter()
            let thread = Thread {
                self.result = work()
                self.done.leave()
            }
            thread.start()
        }
    }

    /// The value, once the work is done.
    public var value: Value {
        done.wait()
        return result ?? work()
    }
}

/// A value handed from one thread to others once: `set` it once, `value` waits for it.
public final class Handoff<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: Value?

    /// Nothing handed yet.
    public init() {}

    /// Hands `value` to every `value` waiting and to come.
    public func set(_ value: Value) {
        condition.lock()
        stored = value
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once set.
    public var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while stored == nil { condition.wait() }
        return stored!
    }
}
