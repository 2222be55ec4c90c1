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

    /// Starts `work` on a global queue, or runs it before returning when `inBackground` is false.
    ///
    /// With `ownThread`, `work` runs on a new thread of that name instead of a worker of the
    /// global queue: for long work that itself waits for tasks it puts on that queue (loading
    /// the campaigns, whose steps run there). The queue has one worker per core; while a worker
    /// waits inside such work the queue has one fewer, and when the others are busy (parsing
    /// the parts of a history beside it) what the work waits for does not start until one of
    /// them is done.
    public init(inBackground: Bool = true, ownThread: String? = nil, _ work: @escaping () -> Value) {
        self.work = work
        guard inBackground else {
            result = work()
            return
        }
        done.enter()
        let run: @Sendable () -> Void = { [self] in
            result = self.work()
            done.leave()
        }
        if let name = ownThread {
            // Named from inside: a name set before `start` does not reach the system's thread.
            let thread = Thread {
                Thread.current.name = name
                run()
            }
            thread.stackSize = BackgroundTask.stackBytes
            thread.start()
        } else {
            DispatchQueue.global().async(execute: run)
        }
    }

    /// The stack of an own thread (as the main thread's usual 8 MiB; pages are used only as touched).
    static var stackBytes: Int { 8 << 20 }

    /// The value, once the work is done.
    public var value: Value {
        done.wait()
        return result ?? work()
    }
}
