import CProcessSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One child process, started with `posix_spawn` in a process group of its own, its
/// standard streams three pipes whose parent ends no other child inherits.
///
/// The child gets no other descriptor of Parley's (every one from 3 up is closed in it),
/// default signal dispositions and an empty signal mask, whatever thread started it.
/// The own process group lets `killGroup()` end the child and everything it started at
/// once, and keeps a terminal's Ctrl-C away from it.
///
/// Thread-safe: closing the input, signalling and reaping are guarded by one lock, so the
/// group is never signalled after the child has been reaped (when its pid could be reused).
/// Reading `output` and `errors` and writing `input` is the owner's business.
public final class SpawnedProcess: Sendable {
    /// The child's pid, which is also its process group.
    public let pid: Int32
    /// The write end of the child's standard input.
    public let input: Int32
    /// The read end of the child's standard output.
    public let output: Int32
    /// The read end of the child's standard error.
    public let errors: Int32
    /// The child as a person knows it, for failures ("the Whisper worker").
    public let name: String
    private let state = Mutex(State())

    private struct State {
        var inputClosed = false
        var outputsClosed = false
        /// The exit status once reaped: the code, or 128 + the signal that ended it.
        var status: Int32?
    }

    /// Starts `arguments[0]` (searched in `PATH` when it has no slash) with `environment` as
    /// its whole environment (Parley's own when nil). Throws `ChildProcessFailure.couldNotStart`.
    public init(_ arguments: [String], environment: [String: String]? = nil, name: String) throws {
        Self.ignoreBrokenPipes
        self.name = name
        let stdin = try Self.makePipe(name), stdout = try Self.makePipe(name), stderr = try Self.makePipe(name)
        defer { for fd in [stdin.read, stdout.write, stderr.write] { close(fd) } }
        do {
            pid = try Self.spawn(arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                 streams: (stdin.read, stdout.write, stderr.write), name: name)
        } catch {
            for fd in [stdin.write, stdout.read, stderr.read] { close(fd) }
            throw error
        }
        (input, output, errors) = (stdin.write, stdout.read, stderr.read)
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
            close(input)
        }
    }

    /// Whether `closeInput()` has run.
    public var isInputClosed: Bool { state.withLock { $0.inputClosed } }

    /// Closes the parent's ends of the child's output and error pipes, once, when nobody reads them any more.
    public func closeOutputs() {
        state.withLock { state in
            guard !state.outputsClosed else { return }
            state.outputsClosed = true
            close(output)
            close(errors)
        }
    }

    /// Sends SIGKILL to the child's whole process group, unless the child has been reaped.
    public func killGroup() {
        state.withLock { state in
            if state.status == nil { kill(-pid, SIGKILL) }
        }
    }

    /// The exit status if the child has ended, reaping it then; nil while it runs.
    @discardableResult
    public func reapIfExited() -> Int32? {
        state.withLock { state in
            if let status = state.status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                state.status = Self.decode(raw)
            } else if result == -1 && errno == ECHILD {
                state.status = -1  // reaped elsewhere: the status is lost
            }
            return state.status
        }
    }

    /// Blocks until the child ends and returns its exit status (reaped).
    @discardableResult
    public func waitForExit() -> Int32 {
        var info = siginfo_t()
        // Waits without reaping, so the pid stays the child's until `reapIfExited` takes it under the lock.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        while true {
            if let status = reapIfExited() { return status }
            usleep(1_000)
        }
    }

    /// Ends the child and reaps it; returns its exit status. Safe to call twice.
    ///
    /// The input is closed first, so a child that reads to its end exits by itself (and a
    /// shell reaps its own stages). Only a child still running after `grace` seconds (hung
    /// or stopped) is killed, with its group: killing a shell first would leave its stages
    /// unreaped.
    @discardableResult
    public func terminate(grace: Double) -> Int32 {
        closeInput()
        if let status = reap(within: grace) { return status }
        killGroup()
        return waitForExit()
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

    /// A raw `waitpid` status as the shell reports it: the exit code, or 128 + the signal.
    static func decode(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// A writer that outlives a dead reader must get EPIPE, not a signal that ends Parley.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func makePipe(_ name: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard parley_pipe_cloexec(&fds) == 0 else {
            throw ChildProcessFailure(name, .couldNotStart("no pipe: \(String(cString: strerror(errno)))"))
        }
        return (fds[0], fds[1])
    }
}
