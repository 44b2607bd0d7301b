import Foundation

/// A dedicated thread that owns one decoder and runs every job that touches it.
///
/// PocketSphinx calls block for milliseconds to hundreds of milliseconds (a
/// model load, the final pass), so they never run on Swift's cooperative
/// pool; and the decoder is not thread-safe, so it lives on exactly one
/// thread. Jobs run in the order they were submitted.
final class DecoderThread: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopping = false

    /// Starts the thread; `name` shows in debuggers and `top -H`.
    init(name: String) {
        let thread = Thread { [self] in runLoop() }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Queues `body` without waiting for it.
    func performDetached(_ body: @escaping @Sendable () -> Void) {
        submit(body)
    }

    /// Lets the thread end once the jobs already submitted have run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func submit(_ job: @escaping () -> Void) {
        condition.lock()
        precondition(!stopping, "a job was submitted to a stopped decoder thread")
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        while let job = nextJob() { job() }
    }

    private func nextJob() -> (() -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !stopping { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}
