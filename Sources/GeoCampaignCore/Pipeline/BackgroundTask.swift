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
        /// On a new thread of this name, outside the pool: for work that waits (on the disk, on
        /// other work, on tasks it puts on the pool itself, as loading the campaigns does) or that
        /// must not keep the pool's threads from the parallel loops beside it. The pool has one
        /// thread per core: while one of them waits inside such work it has one fewer, a queued
        /// task waits for a free thread, and a parallel loop runs on fewer threads.
        case ownThread(String)
    }

    /// Starts `work` on the pool, or runs it before returning when `inBackground` is false.
    public convenience init(inBackground: Bool = true, _ work: @escaping () -> Value) {
        self.init(inBackground ? .pool : .here, work)
    }

    /// Starts `work` at `place`.
    public init(_ place: Place, _ work: @escaping () -> Value) {
        self.work = work
        let run: @Sendable () -> Void = { [self] in
            result = self.work()
            done.leave()
        }
        switch place {
        case .here:
            result = work()
        case .pool:
            done.enter()
            DispatchQueue.global().async(execute: run)
        case .ownThread(let name):
            done.enter()
            BackgroundTask.startThread(name, run)
        }
    }

    /// Starts `body` on a new thread named `name`, with the stack of `stackBytes`.
    public static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        // Named from inside: a name set before `start` does not reach the system's thread.
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.stackSize = stackBytes
        thread.start()
    }

    /// The stack of an own thread (as the main thread's usual 8 MiB; pages are used only as touched).
    static var stackBytes: Int { 8 << 20 }

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
