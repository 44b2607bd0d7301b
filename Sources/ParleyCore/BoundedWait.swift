import Synchronization

/// A wait given up at its bound: what did not happen, and how long it was waited for.
///
/// Its description is one sentence a person can read on stderr:
/// "the audio server did not acknowledge the flush within 0.5 s".
public struct WaitAbandoned: Error, Sendable, Equatable, CustomStringConvertible {
    /// What did not happen, as a clause: "the audio server did not acknowledge the flush".
    public var what: String
    /// The bound, in seconds.
    public var seconds: Double

    /// Creates the report of a wait given up.
    public init(what: String, seconds: Double) {
        self.what = what
        self.seconds = seconds
    }

    public var description: String {
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return "\(what) within \(shown) s"
    }
}

/// Runs `operation` and waits for it at most `seconds`: its result, or `WaitAbandoned`
/// naming `what` once the bound has passed.
///
/// A wait given up is not a wait finished: `operation` is cancelled, but one that does not
/// heed cancellation (a libpulse answer, a child that does not exit) runs on, unobserved, and
/// its result is dropped. That is what a bound at shutdown is for; never give up on a wait
/// whose side effects must be over before going on. Cancelling the caller cancels `operation`
/// and still waits for it within the bound.
///
/// ```swift
/// do {
///     try await withDeadline(seconds: 1, "the audio server did not close the session") { await session.close() }
/// } catch let abandoned as WaitAbandoned {
///     printError("\(abandoned); leaving")
/// }
/// ```
public func withDeadline<Value: Sendable>(seconds: Double, _ what: String,
                                          _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            outcome.begin(continuation)
            let timer = Task {
                guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
                outcome.finish(.failure(WaitAbandoned(what: what, seconds: seconds)))
            }
            outcome.start(Task {
                do {
                    outcome.finish(.success(try await operation()))
                } catch {
                    outcome.finish(.failure(error))
                }
                timer.cancel()
            })
        }
    } onCancel: {
        outcome.cancelWork()
    }
}

/// `withDeadline` for a wait that cannot fail: nil when `operation` ended within `seconds`,
/// else the wait given up (and `operation` left running, cancelled).
public func waitAtMost(_ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async -> Void) async -> WaitAbandoned? {
    do {
        try await withDeadline(seconds: seconds, what, operation)
        return nil
    } catch let abandoned as WaitAbandoned {
        return abandoned
    } catch {
        return nil  // `operation` cannot throw
    }
}

/// The first of an operation's end and its bound resumes the waiter; the other is dropped.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var work: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    func begin(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Keeps the operation's task, so a bound that passes (or a cancelled caller) cancels it.
    func start(_ work: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.work = work
            return state.cancelled || state.continuation == nil
        }
        if cancelled { work.cancel() }
    }

    func finish(_ result: Result<Value, any Error>) {
        let (continuation, work) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.work)
        }
        guard let continuation else { return }
        continuation.resume(with: result)
        if case .failure(is WaitAbandoned) = result { work?.cancel() }
    }

    func cancelWork() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}
