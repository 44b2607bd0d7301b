import CProcessSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a running pipeline could not answer one request.
enum PipelineFailure: Error, CustomStringConvertible {
    /// The pipeline could not be started.
    case notStarted(String)
    /// A stage exited (or closed its output); the text is what it last wrote on stderr.
    case exited(String)
    /// No answer came within the time allowed.
    case timedOut(seconds: Double)
    /// The answer grew past the limit without ending.
    case answerTooLong(bytes: Int)
    /// The answer was not the one to the request: a stage flushed on its own, so the stream is out of step.
    case outOfStep

    var description: String {
        switch self {
        case let .notStarted(reason): "the pipeline could not be started: \(reason)"
        case let .exited(stderr): "the pipeline stopped" + (stderr.isEmpty ? "" : " (\(stderr))")
        case let .timedOut(seconds): "the pipeline did not answer within \(String(format: "%.1f", seconds)) s"
        case let .answerTooLong(bytes): "the pipeline's answer passed \(bytes) bytes without ending"
        case .outOfStep: "the pipeline answered out of step"
        }
    }
}

/// One running Apertium pipeline: `/bin/sh -c SCRIPT` with its stages in a
/// process group of their own, talked to through three pipes.
///
/// The script is the mode's pipeline as `apertium-wblank-mode` prints it; the
/// text to translate only ever travels through standard input, never through
/// a command line. The own process group lets `terminate()` kill every stage
/// at once, and keeps a terminal's Ctrl-C away from the pipeline.
///
/// Not thread-safe: its owner (`ApertiumPipeline`) touches it from one serial
/// queue only.
final class PipelineProcess {
    /// The shell's process id, which is also the pipeline's process group.
    let processGroup: pid_t
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private var received: [UInt8] = []
    private var errorTail: [UInt8] = []
    /// Stderr bytes not yet taken by `takeErrorOutput()`, bounded like `errorTail`.
    private var untakenErrors: [UInt8] = []
    private var errorsOpen = true
    private var inputClosed = false
    private var terminated = false

    /// Starts `script` with `arguments` as `$1`, `$2`… and `environment` as its whole environment.
    init(script: String, arguments: [String], environment: [String: String]) throws {
        Self.ignoreBrokenPipes
        let stdin = try Self.makePipe(), stdout = try Self.makePipe(), stderr = try Self.makePipe()
        let childEnds = [stdin.read, stdout.write, stderr.write]
        defer { for fd in childEnds { close(fd) } }
        do {
            processGroup = try Self.spawn(["/bin/sh", "-c", script, "sh"] + arguments, environment: environment,
                                          stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
        } catch {
            for fd in [stdin.write, stdout.read, stderr.read] { close(fd) }
            throw error
        }
        (input, output, errors) = (stdin.write, stdout.read, stderr.read)
        for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit { terminate() }

    /// Whether bytes arrived after the last answer: the stream is out of step and the pipeline must go.
    var isOutOfStep: Bool { !received.isEmpty }

    /// Sends `request` (which ends with the flush byte) and returns the answer up to its flush byte.
    /// Writing and reading interleave, so a long request cannot deadlock against a full output pipe.
    func exchange(_ request: [UInt8], timeout seconds: Double, limit: Int) throws -> [UInt8] {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var written = 0
        while true {
            if let end = received.firstIndex(of: ApertiumStreamFormat.flush) {
                defer { received.removeSubrange(...end) }
                return Array(received[..<end])
            }
            guard received.count <= limit else { throw PipelineFailure.answerTooLong(bytes: limit) }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw PipelineFailure.timedOut(seconds: seconds) }
            try waitAndTransfer(request, written: &written, milliseconds: Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
        }
    }

    /// Ends every stage, reaps the shell and closes the pipes. Safe to call twice.
    ///
    /// The input is closed first, so each stage reads the end, exits in turn and
    /// is reaped by the shell. Only a pipeline still running after `grace`
    /// seconds (hung or stopped) is killed as a group: killing first would leave
    /// the stages unreaped, as zombies, once the shell is gone.
    func terminate(grace: Double = 0.5) {
        guard !terminated else { return }
        terminated = true
        closeInput()
        if !reapShell(within: grace) {
            kill(-processGroup, SIGKILL)
            var status: Int32 = 0
            while waitpid(processGroup, &status, 0) == -1 && errno == EINTR {}
        }
        for fd in [output, errors] { close(fd) }
    }

    /// Ends the process without waiting for it: the input closes, so every stage reads its end
    /// and exits in turn. True once the shell has been reaped (the pipes are then closed); false
    /// while it still runs, to be asked again or ended with `terminate(grace:)`.
    func endWithoutWaiting() -> Bool {
        guard !terminated else { return true }
        closeInput()
        var status: Int32 = 0
        let result = waitpid(processGroup, &status, WNOHANG)
        guard result == processGroup || (result == -1 && errno == ECHILD) else { return false }
        terminated = true
        for fd in [output, errors] { close(fd) }
        return true
    }

    private func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        close(input)
    }

    /// Waits up to `seconds` for the shell to exit; whether it was reaped.
    private func reapShell(within seconds: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var status: Int32 = 0
        repeat {
            let result = waitpid(processGroup, &status, WNOHANG)
            if result == processGroup || (result == -1 && errno == ECHILD) { return true }
            usleep(5_000)
        } while DispatchTime.now().uptimeNanoseconds < deadline
        return false
    }

    /// What the stages last wrote on stderr, trimmed.
    var lastErrorOutput: String {
        String(decoding: errorTail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the stages wrote on stderr since the last call, including what is waiting in the pipe now.
    ///
    /// A stage writes its stderr before the output it goes on to flush, so once an
    /// answer has arrived, everything written while making it can be read here.
    func takeErrorOutput() -> String {
        while errorsOpen, readErrors() > 0 {}
        defer { untakenErrors = [] }
        return String(decoding: untakenErrors, as: UTF8.self)
    }

    /// One `poll` round: writes what the pipeline accepts, reads what it printed.
    private func waitAndTransfer(_ request: [UInt8], written: inout Int, milliseconds: Int32) throws {
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
        if errorsOpen { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
        if written < request.count { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), milliseconds)
        guard ready > 0 else {
            if ready < 0 && errno != EINTR { throw PipelineFailure.exited("poll failed: errno \(errno)") }
            return
        }
        for entry in fds where entry.revents != 0 {
            switch entry.fd {
            case output: try readOutput()
            case errors: readErrors()
            default: try write(request, written: &written)
            }
        }
    }

    private func readOutput() throws {
        let count = try readAvailable(output) { received.append(contentsOf: $0) }
        if count == 0 { throw PipelineFailure.exited(lastErrorOutput) }
    }

    @discardableResult
    private func readErrors() -> Int {
        let count = (try? readAvailable(errors) {
            errorTail = Array((errorTail + $0).suffix(2048))
            untakenErrors = Array((untakenErrors + $0).suffix(4096))
        }) ?? 0
        if count == 0 { errorsOpen = false }
        return count
    }

    /// Reads what is there; returns 0 at end of file, -1 when nothing was ready.
    private func readAvailable(_ fd: Int32, _ consume: (ArraySlice<UInt8>) -> Void) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 { consume(buffer[..<count]) }
        if count < 0 && errno != EAGAIN && errno != EINTR { throw PipelineFailure.exited("read failed: errno \(errno)") }
        return count
    }

    private func write(_ request: [UInt8], written: inout Int) throws {
        let count = request[written...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
        if count > 0 { written += count }
        if count < 0 && errno != EAGAIN && errno != EINTR { throw PipelineFailure.exited(lastErrorOutput) }
    }

    /// A writer that outlives a dead reader must get EPIPE, not a signal that ends Parley.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard parley_pipe_cloexec(&fds) == 0 else { throw PipelineFailure.notStarted("no pipe: errno \(errno)") }
        return (fds[0], fds[1])
    }
}
