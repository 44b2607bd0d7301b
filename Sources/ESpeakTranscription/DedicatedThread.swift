import Foundation

/// One thread that runs submitted jobs in order, for a C library whose state is global.
///
/// eSpeak NG must only ever be called from one thread; a serial dispatch queue
/// does not promise that, a thread of our own does.
final class DedicatedThread: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    /// Starts the thread; it lives as long as the process.
    init(name: String) {
        let thread = Thread { [self] in self.serve() }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and returns what it returned or throws what it threw.
    func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
