import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tool run to its end: its input fed from bytes given (then closed), its output and
/// stderr read while the input is written (so that no pipe can fill and stall it), then reaped.
///
/// Every wait has a bound: the tool must exit within its time, and its output must end
/// soon after the exit. An output that stays open longer is held by a process the tool
/// started and left running, which the run gives up on (and leaves alone).
public struct ToolRun: Sendable {
    /// How the tool ended.
    public var termination: SpawnedProcess.Termination
    /// Everything the tool wrote on standard output (nothing when it went elsewhere).
    public var output: [UInt8]
    /// What it wrote on stderr: the end of it, up to the run's `errorLimit` bytes.
    public var errors: StderrTail

    /// Runs `arguments` (see `SpawnedProcess`) to its end, with `input` on its standard input
    /// and its standard output on a pipe read here, unless `standardOutput` says otherwise.
    ///
    /// Throws `ChildProcessFailure`: the tool could not start, wrote more than `limit` bytes
    /// of output, ran past `timeout` seconds (it is then ended as `teardown` says, by default
    /// killed with its group, and reaped), or exited with its output still open `outputGrace`
    /// seconds later (`outputHeldOpen`). Only the last `errorLimit` bytes of stderr are kept.
    public init(_ arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil, name: String,
                timeout: Double, limit: Int = 16 << 20, errorLimit: Int = 4096, outputGrace: Double = 10,
                standardOutput: SpawnedProcess.Stream = .pipe, teardown: Teardown = .killGroup) throws {
        let process = try SpawnedProcess(arguments, environment: environment, name: name, standardOutput: standardOutput)
        defer { process.closeOutputs() }
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(timeout)
        var transfer = ToolTransfer(process, input: input, errorLimit: errorLimit)
        var failure = transfer.run(until: deadline, timeout: timeout, outputGrace: outputGrace, limit: limit)
        if failure == nil, process.reap(within: Double(deadline - min(DispatchTime.now().uptimeNanoseconds, deadline)) / 1e9) == nil {
            failure = .timedOut(seconds: timeout)
        }
        if let failure {
            if failure != .outputHeldOpen { process.tearDown(teardown) }
            throw ChildProcessFailure(name, failure)
        }
        (termination, output, errors) = (process.termination ?? .lost, transfer.output, transfer.errors)
    }

    /// The exit status: the code, or 128 + the signal that ended the tool.
    public var status: Int32 { termination.status }

    /// The output as text (invalid UTF-8 replaced).
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(seconds, 0) * 1e9)
    }
}

/// The `poll` loop of one run: feeds the input, reads output and stderr, and looks for the exit.
private struct ToolTransfer {
    let process: SpawnedProcess
    let input: [UInt8]
    var written = 0
    /// The output and stderr pipes not yet at their end.
    var open: [Int32]
    var output: [UInt8] = []
    var errors: StderrTail

    init(_ process: SpawnedProcess, input: [UInt8], errorLimit: Int) {
        (self.process, self.input) = (process, input)
        open = [process.output, process.errors].filter { $0 >= 0 }
        errors = StderrTail(limit: errorLimit)
        if input.isEmpty { process.closeInput() } else { PipeIO.setNonBlocking(process.input) }
    }

    /// Runs until the output and stderr have ended and the input is closed; the failure that
    /// came first, if one did. `deadline` ends a `timeout` that began when the tool started.
    mutating func run(until deadline: UInt64, timeout: Double, outputGrace: Double, limit: Int) -> ChildProcessFailure.Kind? {
        var exited: UInt64?
        while !open.isEmpty || !process.isInputClosed {
            let now = DispatchTime.now().uptimeNanoseconds
            if exited == nil, process.termination != nil { exited = now }
            let end = exited.map { $0 + ToolRun.nanoseconds(outputGrace) } ?? deadline
            guard now < end else { return exited == nil ? .timedOut(seconds: timeout) : .outputHeldOpen }
            // While the tool runs, its exit is looked for every 50 ms.
            let wait = min(end - now, exited == nil ? 50_000_000 : .max) / 1_000_000 + 1
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if !process.isInputClosed { fds.append(pollfd(fd: process.input, events: Int16(POLLOUT), revents: 0)) }
            guard PipeIO.poll(&fds, milliseconds: Int32(min(wait, 60_000))) else { return .outOfStep("poll failed: errno \(errno)") }
            for entry in fds where entry.revents != 0 {
                if entry.fd == process.input { feed() } else { read(entry.fd) }
            }
            if output.count > limit { return .answerTooLong(bytes: limit) }
        }
        return nil
    }

    /// Writes what the input takes; closes it once all is written or the tool no longer reads.
    private mutating func feed() {
        if !PipeIO.write(process.input, input, written: &written) || written == input.count { process.closeInput() }
    }

    private mutating func read(_ fd: Int32) {
        var chunk: [UInt8] = []
        switch PipeIO.read(fd, into: &chunk) {
        case .end, .failed: open.removeAll { $0 == fd }
        case .nothing: break
        case .bytes: if fd == process.output { output += chunk } else { errors.append(chunk) }
        }
    }
}
