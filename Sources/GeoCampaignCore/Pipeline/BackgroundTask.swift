import Dispatch

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
    public init(inBackground: Bool = true, _ work: @escaping () -> Value) {
        self.work = work
        guard inBackground else {
            result = work()
            return
        }
        done.enter()
        DispatchQueue.global().async {
            self.result = work()
            self.done.leave()
        }
    }

    /// The value, once the work is done.
    public var value: Value {
        done.wait()
        return result ?? work()
    }
}
