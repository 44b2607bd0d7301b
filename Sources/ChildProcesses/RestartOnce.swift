/// The owners' policy for a child that fails: the request that failed because the child
/// died, hung or fell out of step is sent once more to a fresh child, and a second failure
/// is reported.
public enum RestartOnce {
    /// Runs `attempt`; when it throws a `ChildProcessFailure`, calls `discard` (which drops the
    /// failed child, so the next attempt starts a fresh one) and runs `attempt` once more.
    /// `discard` learns the failure and whether another attempt follows. Other errors pass through.
    public static func run<T>(_ attempt: () throws -> T,
                              discard: (ChildProcessFailure, _ retrying: Bool) -> Void) throws -> T {
        do {
            return try attempt()
        } catch let failure as ChildProcessFailure {
            discard(failure, true)
            do {
                return try attempt()
            } catch let failure as ChildProcessFailure {
                discard(failure, false)
                throw failure
            }
        }
    }

    /// `run(_:discard:)` for an asynchronous attempt, on the caller's actor (an owner such as
    /// `WhisperWorker` keeps its state in the attempt).
    public static func run<T>(isolation: isolated (any Actor)? = #isolation, _ attempt: () async throws -> T,
                              discard: (ChildProcessFailure, _ retrying: Bool) async -> Void) async throws -> T {
        do {
            return try await attempt()
        } catch let failure as ChildProcessFailure {
            await discard(failure, true)
            do {
                return try await attempt()
            } catch let failure as ChildProcessFailure {
                await discard(failure, false)
                throw failure
            }
        }
    }
}
