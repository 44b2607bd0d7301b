import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tool run to its end: started with no input, its output and stderr read together (so
/// neither pipe can fill and stall it), then reaped.
public struct ToolRun: Sendable {
    /// The exit status: the code, or 128 + the signal that ended it.
    public var status: Int32
    /// Everything the tool wrote on standard output.
    public var output: [UInt8]
    /// The end of what it wrote on stderr.
    public var errors: StderrTail

    /// Runs `arguments` (see `SpawnedProcess`) to its end. Throws `ChildProcessFailure`: it
    /// could not start, wrote more than `limit` bytes of output, or ran past `timeout` seconds
    /// (it is then killed with its group and reaped).
    public init(_ arguments: [String], environment: [String: String]? = nil, name: String,
                timeout: Double, limit: Int = 16 << 20) throws {
        let process = try SpawnedProcess(arguments, environment: environment, name: name)
        defer { process.closeOutputs() }
        process.closeInput()
        var output: [UInt8] = [], errors = StderrTail(limit: 4096)
        var open = [process.output, process.errors]
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var failure: ChildProcessFailure.Kind?
        while !open.isEmpty, failure == nil {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                failure = .timedOut(seconds: timeout)
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard PipeIO.poll(&fds, milliseconds: Int32(min((deadline - now) / 1_000_000 + 1, 60_000))) else { break }
            for entry in fds where entry.revents != 0 {
                var chunk: [UInt8] = []
                switch PipeIO.read(entry.fd, into: &chunk) {
                case .end, .failed: open.removeAll { $0 == entry.fd }
                case .nothing: break
                case .bytes: if entry.fd == process.output { output += chunk } else { errors.append(chunk) }
                }
            }
            if output.count > limit { failure = .answerTooLong(bytes: limit) }
        }
        let remaining = Double(deadline - min(DispatchTime.now().uptimeNanoseconds, deadline)) / 1e9
        guard failure == nil, let status = process.reap(within: remaining) else {
            process.killGroup()
            process.waitForExit()
            throw ChildProcessFailure(name, failure ?? .timedOut(seconds: timeout))
        }
        (self.status, self.output, self.errors) = (status, output, errors)
    }

    /// The output as text (invalid UTF-8 replaced).
    public var outputText: String { String(decoding: output, as: UTF8.self) }
}
