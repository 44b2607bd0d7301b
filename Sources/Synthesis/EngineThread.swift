import Foundation

/// One dedicated thread that runs submitted jobs in order.
///
/// eSpeak NG keeps all its state in globals and crashes when two threads
/// synthesize at once, so every espeak call goes through one of these. It is
/// a real thread, not Swift's cooperative pool: a synthesis blocks for as long
/// as it takes, and the pool must never be blocked by a C call.
final class EngineThread: @unchecked Sendable {
    // `jobs` is guarded by `condition`; the thread is the only consumer.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private let name: String

    /// Starts the thread; it lives as long as the process.
    init(name: String) {
        self.name = name
        let thread = Thread { [unowned self] in self.runLoop() }
        thread.name = name
        thread.start()
    }

    /// Whether the caller is running on this thread.
    var isCurrent: Bool { Thread.current.name == name }

    /// Queues `job` to run after every job submitted before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the thread and returns its result to the awaiting task.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on the thread and blocks the caller until it is done.
    /// For synchronous start-up code only; never call it from the thread itself.
    func performAndWait<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        precondition(!isCurrent, "performAndWait from the engine thread would deadlock")
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        submit {
            box.result = Result { try body() }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    private func runLoop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// Carries a result from the engine thread to a blocked caller; the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
