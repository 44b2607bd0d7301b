import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child that answers each request on its standard output with bytes ended by one
/// delimiter byte (an Apertium pipeline answers at each null flush).
///
/// Writing the request and reading the answer interleave in one `poll` loop, so a
/// long request cannot deadlock against a full output pipe. What the child writes on
/// stderr is read in the same loop into two bounded tails.
///
/// Not thread-safe: one owner touches it, from one serial queue.
public final class StreamChild {
    /// The process, its pipes and its group.
    public let process: SpawnedProcess
    private let delimiter: UInt8
    private var received: [UInt8] = []
    /// The last of stderr, for failures.
    private var errorTail = StderrTail(limit: 2048)
    /// Stderr not yet taken by `takeErrorOutput()`.
    private var untakenErrors = StderrTail(limit: 4096)
    private var errorsOpen = true
    private var ended = false

    /// Starts `arguments` (see `SpawnedProcess`); each answer ends with `delimiter`.
    public init(_ arguments: [String], environment: [String: String]? = nil, name: String, delimiter: UInt8) throws {
        process = try SpawnedProcess(arguments, environment: environment, name: name)
        self.delimiter = delimiter
        for fd in [process.input, process.output, process.errors] { PipeIO.setNonBlocking(fd) }
    }

    deinit { terminate(grace: 0.5) }

    /// The child's process group (its pid).
    public var processGroup: Int32 { process.pid }

    /// Whether bytes arrived after the last answer: the stream is out of step and the child must go.
    public var isOutOfStep: Bool { !received.isEmpty }

    /// Sends `request` (which ends with the delimiter) and returns the answer up to its delimiter.
    /// Throws `ChildProcessFailure`: exited, timed out after `seconds`, or an answer over `limit` bytes.
    public func exchange(_ request: [UInt8], timeout seconds: Double, limit: Int) throws -> [UInt8] {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var written = 0
        while true {
            if let end = received.firstIndex(of: delimiter) {
                defer { received.removeSubrange(...end) }
                return Array(received[..<end])
            }
            guard received.count <= limit else { throw failure(.answerTooLong(bytes: limit)) }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw failure(.timedOut(seconds: seconds)) }
            try transfer(request, written: &written, milliseconds: Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
        }
    }

    /// What the child wrote on stderr since the last call, including what waits in the pipe now.
    ///
    /// A child that writes its stderr before the answer it goes on to flush has, once the
    /// answer arrived, everything it wrote while making it read here.
    public func takeErrorOutput() -> String {
        while errorsOpen, readErrors() {}
        return untakenErrors.take()
    }

    /// Ends the child and reaps it (see `SpawnedProcess.terminate(grace:)`). Safe to call twice.
    public func terminate(grace: Double = 0.5) {
        guard !ended else { return }
        ended = true
        process.terminate(grace: grace)
        process.closeOutputs()
    }

    /// Ends the child without waiting for it: its input closes, so it reads the end and exits.
    /// True once it has been reaped (its pipes are then closed); false while it still runs, to
    /// be asked again or ended with `terminate(grace:)`.
    public func endWithoutWaiting() -> Bool {
        guard !ended else { return true }
        process.closeInput()
        guard process.reapIfExited() != nil else { return false }
        ended = true
        process.closeOutputs()
        return true
    }

    private func failure(_ kind: ChildProcessFailure.Kind) -> ChildProcessFailure {
        ChildProcessFailure(process.name, kind)
    }

    /// The child closed its output: its status if it has ended by now, and its last stderr line.
    private func exited() -> ChildProcessFailure {
        while errorsOpen, readErrors() {}
        return failure(.exited(status: process.reapIfExited(), stderrTail: errorTail.lastLine))
    }

    /// One `poll` round: writes what the child accepts, reads what it printed.
    private func transfer(_ request: [UInt8], written: inout Int, milliseconds: Int32) throws {
        var fds = [pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)]
        if errorsOpen { fds.append(pollfd(fd: process.errors, events: Int16(POLLIN), revents: 0)) }
        if written < request.count { fds.append(pollfd(fd: process.input, events: Int16(POLLOUT), revents: 0)) }
        guard PipeIO.poll(&fds, milliseconds: milliseconds) else { throw failure(.outOfStep("poll failed: errno \(errno)")) }
        for entry in fds where entry.revents != 0 {
            if entry.fd == process.output {
                switch PipeIO.read(process.output, into: &received) {
                case .end, .failed: throw exited()
                case .bytes, .nothing: break
                }
            } else if entry.fd == process.errors {
                readErrors()
            } else if !PipeIO.write(process.input, request, written: &written) {
                throw exited()
            }
        }
    }

    /// Reads what waits on stderr into both tails; false when nothing was read.
    @discardableResult
    private func readErrors() -> Bool {
        var chunk: [UInt8] = []
        switch PipeIO.read(process.errors, into: &chunk) {
        case .bytes:
            errorTail.append(chunk)
            untakenErrors.append(chunk)
            return true
        case .end, .failed:
            errorsOpen = false
            return false
        case .nothing:
            return false
        }
    }
}
