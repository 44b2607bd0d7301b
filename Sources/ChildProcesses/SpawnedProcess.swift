import CProcessSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One child process, started with `posix_spawn` in a process group of its own, its
/// standard streams pipes whose parent ends no other child inherits (or, when asked,
/// /dev/null or a descriptor of the caller's: see `Stream`).
///
/// The child gets no other descriptor of Parley's (every one from 3 up is closed in it),
/// default signal dispositions and an empty signal mask, whatever thread started it.
/// The own process group lets `killGroup()` end the child and everything it started at
/// once, and keeps a terminal's Ctrl-C away from it.
///
/// Thread-safe: closing the input, signalling and reaping are guarded by one lock, so the
/// child or its group is never signalled after the child has been reaped (when its pid
/// could be reused). Reading `output` and `errors` and writing `input` is the owner's business.
public final class SpawnedProcess: Sendable {
    /// The child's pid, which is also its process group.
    public let pid: Int32
    /// The write end of the child's standard input; -1 when it is not a pipe.
    public let input: Int32
    /// The read end of the child's standard output; -1 when it is not a pipe.
    public let output: Int32
    /// The read end of the child's standard error; -1 when it is not a pipe.
    public let errors: Int32
    /// The child as a person knows it, for failures ("the Whisper worker").
    public let name: String
    private let state = Mutex(State())

    private struct State {
        var inputClosed = false
        var outputsClosed = false
        /// How the child ended, once reaped.
        var termination: Termination?
    }

    /// Starts `arguments[0]` (searched in `PATH` when it has no slash) with `environment` as
    /// its whole environment (Parley's own when nil), its standard streams as given (pipes by
    /// default). Throws `ChildProcessFailure.couldNotStart`.
    public init(_ arguments: [String], environment: [String: String]? = nil, name: String,
                standardInput: Stream = .pipe, standardOutput: Stream = .pipe, standardError: Stream = .pipe) throws {
        Self.ignoreBrokenPipes
        self.name = name
        let requested = [standardInput, standardOutput, standardError]
        let pipes = try Self.makePipes(for: requested, name: name)
        defer { for pipe in pipes.compactMap({ $0 }) { close(pipe.child) } }
        let streams = zip(requested, pipes).map { stream, pipe in pipe.map { Stream.descriptor($0.child) } ?? stream }
        do {
            pid = try Self.spawn(arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                 streams: streams, name: name)
        } catch {
            for pipe in pipes.compactMap({ $0 }) { close(pipe.parent) }
            throw error
        }
        (input, output, errors) = (pipes[0]?.parent ?? -1, pipes[1]?.parent ?? -1, pipes[2]?.parent ?? -1)
    }

    deinit {
        closeInput()
        closeOutputs()
    }

    /// Closes the child's input, once: a child that reads to the end then ends on its own.
    public func closeInput() {
        state.withLock { state in
            guard !state.inputClosed else { return }
            state.inputClosed = true
            if input >= 0 { close(input) }
        }
    }

    /// Whether `closeInput()` has run.
    public var isInputClosed: Bool { state.withLock { $0.inputClosed } }

    /// Closes the parent's ends of the child's output and error pipes, once, when nobody reads them any more.
    public func closeOutputs() {
        state.withLock { state in
            guard !state.outputsClosed else { return }
            state.outputsClosed = true
            for end in [output, errors] where end >= 0 { close(end) }
        }
    }

    /// Sends `signal` to the child, or with `toGroup` to its whole process group, unless the
    /// child has been reaped; whether it was sent.
    @discardableResult
    public func send(_ signal: Int32, toGroup: Bool = false) -> Bool {
        state.withLock { state in
            guard state.termination == nil else { return false }
            return kill(toGroup ? -pid : pid, signal) == 0
        }
    }

    /// Sends SIGKILL to the child's whole process group, unless the child has been reaped.
    public func killGroup() {
        send(SIGKILL, toGroup: true)
    }

    /// How the child ended if it has, reaping it then; nil while it runs.
    public var termination: Termination? {
        state.withLock { state in
            if let termination = state.termination { return termination }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                state.termination = Termination(waitStatus: raw)
            } else if result == -1 && errno == ECHILD {
                state.termination = .lost
            }
            return state.termination
        }
    }

    /// Whether the child still runs (one that has ended is reaped by the question).
    public var isRunning: Bool { termination == nil }

    /// The exit status if the child has ended, reaping it then; nil while it runs.
    @discardableResult
    public func reapIfExited() -> Int32? {
        termination?.status
    }

    /// Blocks until the child ends and returns its exit status (reaped).
    @discardableResult
    public func waitForExit() -> Int32 {
        var info = siginfo_t()
        // Waits without reaping, so the pid stays the child's until `termination` takes it under the lock.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        while true {
            if let termination { return termination.status }
            usleep(1_000)
        }
    }

    /// Ends the child and reaps it; returns its exit status. Safe to call twice.
    ///
    /// The input is closed first, so a child that reads to its end exits by itself (and a
    /// shell reaps its own stages). Only a child still running after `grace` seconds (hung
    /// or stopped) is killed, with its group: killing a shell first would leave its stages
    /// unreaped. This is `tearDown(.closingInput(grace:))`.
    @discardableResult
    public func terminate(grace: Double) -> Int32 {
        tearDown(.closingInput(grace: grace)).status
    }

    /// Waits up to `seconds` for the child to end and reaps it: its exit status, or nil while it still runs.
    public func reap(within seconds: Double) -> Int32? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(seconds, 0) * 1e9)
        while true {
            if let status = reapIfExited() { return status }
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return nil }
            usleep(5_000)
        }
    }

    /// A writer that outlives a dead reader must get EPIPE, not a signal that ends Parley.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// A close-on-exec pipe for each `.pipe` in `streams` (nil for the others): the end the
    /// child gets (the read end for its input) and the parent's. None is left open when one fails.
    private static func makePipes(for streams: [Stream], name: String) throws -> [(parent: Int32, child: Int32)?] {
        var pipes: [(parent: Int32, child: Int32)?] = []
        for (number, stream) in streams.enumerated() {
            guard stream == .pipe else {
                pipes.append(nil)
                continue
            }
            var fds: [Int32] = [0, 0]
            guard parley_pipe_cloexec(&fds) == 0 else {
                let reason = String(cString: strerror(errno))
                for pipe in pipes.compactMap({ $0 }) { [pipe.parent, pipe.child].forEach { close($0) } }
                throw ChildProcessFailure(name, .couldNotStart("no pipe: \(reason)"))
            }
            pipes.append(number == 0 ? (fds[1], fds[0]) : (fds[0], fds[1]))
        }
        return pipes
    }
}
