import Dispatch
import Foundation
import Synchronization

/// A serial executor that runs every job on one thread of its own.
///
/// For C libraries whose calls block (a model load, a whole synthesis) or whose
/// state must stay on one thread: an actor that returns this executor from
/// `unownedExecutor` runs all its isolated code on that thread, one job at a
/// time in the order the jobs arrive, and never on Swift's cooperative pool.
///
/// ```swift
/// actor Engine {
///     private let executor = DedicatedThreadExecutor(name: "engine")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
///
/// The thread keeps the executor alive until `stop()` lets it end.
public final class DedicatedThreadExecutor: SerialExecutor {
    /// What the thread works through.
    private struct Queue {
        var jobs: [UnownedJob] = []
        var stopping = false
    }

    private let queue = Mutex(Queue())
    /// Counts queued jobs, plus one for a stop request: what the thread sleeps on.
    private let available = DispatchSemaphore(value: 0)
    /// The thread's name, shown in debuggers and `top -H`.
    public let name: String

    /// Starts the thread; `name` shows in debuggers and `top -H`.
    public init(name: String) {
        self.name = name
        let thread = Thread { [self] in runLoop() }
        thread.name = name
        thread.start()
    }

    /// Queues `job` to run on the thread after every job queued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { queue in
            precondition(!queue.stopping, "a job was queued on the stopped executor \(name)")
            queue.jobs.append(job)
        }
        available.signal()
    }

    /// Lets the thread end once the jobs already queued have run. Typically called from an
    /// actor's isolated `deinit`, as the last job.
    public func stop() {
        queue.withLock { $0.stopping = true }
        available.signal()
    }

    private func runLoop() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// The next job, waiting for one; nil once stopped and empty.
    private func nextJob() -> UnownedJob? {
        while true {
            available.wait()
            let next: UnownedJob?? = queue.withLock { queue in
                if !queue.jobs.isEmpty { return .some(queue.jobs.removeFirst()) }
                return queue.stopping ? .some(nil) : nil
            }
            if let next { return next }
        }
    }
}
